// The official @actions/artifact client against the forge of the job mock-runner exec hands out:
// upload (zipped and skipArchive), list and get (with their digests), download verified against the listed
// digest and byte comparison, delete. Exits non-zero on any mismatch.
import { DefaultArtifactClient } from '@actions/artifact'
import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

const client = new DefaultArtifactClient()
const workspace = process.env.GITHUB_WORKSPACE || process.cwd()
const failures = []

function check(condition, message) {
  if (condition) {
    console.log(`ok: ${message}`)
  } else {
    console.log(`MISMATCH: ${message}`)
    failures.push(message)
  }
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex')

const source = join(workspace, 'source')
mkdirSync(join(source, 'nested'), { recursive: true })
const files = {
  'hello.txt': Buffer.from('hello from the official client\n'),
  'nested/random.bin': randomBytes(9 * 1024 * 1024 + 321), // more than one 8 MiB block
  'nested/empty.txt': Buffer.alloc(0)
}
for (const [name, bytes] of Object.entries(files)) writeFileSync(join(source, name), bytes)
const single = join(workspace, 'single.json')
const singleBytes = Buffer.from(JSON.stringify({ kit: 'forge-conformance', bytes: [0, 1, 255] }))
writeFileSync(single, singleBytes)

// upload: zipped, and a single file without archive (its name becomes the file's base name)
const zipped = await client.uploadArtifact('zipped-files', Object.keys(files).map((name) => join(source, name)), source, {
  retentionDays: 2
})
check(Number.isInteger(zipped.id) && zipped.id > 0, `zipped upload gave id ${zipped.id}`)
const raw = await client.uploadArtifact('ignored-for-raw', [single], workspace, { skipArchive: true })
check(raw.size === singleBytes.length, `raw upload size ${raw.size} == ${singleBytes.length}`)
check(raw.digest === sha256(singleBytes), 'raw upload digest is the sha256 of the file')

// list and get
const listed = (await client.listArtifacts()).artifacts
const names = listed.map((artifact) => artifact.name).sort()
check(JSON.stringify(names) === JSON.stringify(['single.json', 'zipped-files']), `listed ${JSON.stringify(names)}`)
const byName = Object.fromEntries(listed.map((artifact) => [artifact.name, artifact]))
check(byName['zipped-files']?.id === zipped.id, 'listed id of the zipped artifact matches the upload')
check(byName['zipped-files']?.size === zipped.size, 'listed size of the zipped artifact matches the upload')
// the digest is the sha256 of exactly the bytes uploaded: the zip the client streamed, or the raw file
check(byName['zipped-files']?.digest === `sha256:${zipped.digest}`,
  `listed digest of the zipped artifact ${byName['zipped-files']?.digest} is sha256:<the upload's digest>`)
check(byName['single.json']?.digest === `sha256:${sha256(singleBytes)}`,
  `listed digest of single.json ${byName['single.json']?.digest} is the sha256 of the file`)
const got = (await client.getArtifact('single.json')).artifact
check(got.id === raw.id && got.size === singleBytes.length, `getArtifact finds single.json (id ${got.id})`)
check(got.digest === `sha256:${sha256(singleBytes)}`, 'getArtifact gives the same digest')

// download and compare bytes
const zippedDir = join(workspace, 'downloaded-zipped')
// as actions/download-artifact does: the listed digest is the expected hash
const zippedDownload = await client.downloadArtifact(zipped.id, { path: zippedDir, expectedHash: byName['zipped-files']?.digest })
check(zippedDownload.digestMismatch === false, 'zipped download verified against the listed digest')
for (const [name, bytes] of Object.entries(files)) {
  const path = join(zippedDir, name)
  check(existsSync(path) && sha256(readFileSync(path)) === sha256(bytes), `downloaded ${name} is identical`)
}
const rawDir = join(workspace, 'downloaded-raw')
const rawDownload = await client.downloadArtifact(raw.id, { path: rawDir, expectedHash: byName['single.json']?.digest })
check(rawDownload.digestMismatch === false, 'raw download verified against the listed digest')
const rawPath = join(rawDir, 'single.json')
check(existsSync(rawPath) && readFileSync(rawPath).equals(singleBytes),
  `raw download is identical (directory holds ${existsSync(rawDir) ? readdirSync(rawDir).join(',') : 'nothing'})`)

// delete
const deleted = await client.deleteArtifact('zipped-files')
check(deleted.id === zipped.id, `deleteArtifact returned id ${deleted.id}`)
const after = (await client.listArtifacts()).artifacts.map((artifact) => artifact.name)
check(JSON.stringify(after) === JSON.stringify(['single.json']), `after delete: ${JSON.stringify(after)}`)

if (failures.length) {
  console.log(`${failures.length} mismatch(es)`)
  process.exit(1)
}
console.log('official artifact client round trip: all checks passed')
