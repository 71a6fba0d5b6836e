// The official legacy client (@actions/artifact 1.x, installed as artifact-v1: protocol v3) against the forge of
// the job mock-runner exec hands out: upload of several files (a gzip-able text, random binary over one chunk, an
// empty file), download of one artifact and of all, byte comparison. Exits non-zero on any mismatch.
import artifactV1 from 'artifact-v1'
import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'

const client = artifactV1.create()
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

const source = join(workspace, 'source-v3')
mkdirSync(join(source, 'nested'), { recursive: true })
const files = {
  'notes.txt': Buffer.from('legacy artifact protocol, line after line\n'.repeat(4000)), // gzip'ed by the client
  'nested/random.bin': randomBytes(8 * 1024 * 1024 + 4321), // incompressible, more than one 8 MiB chunk
  'nested/empty.txt': Buffer.alloc(0)
}
for (const [name, bytes] of Object.entries(files)) writeFileSync(join(source, name), bytes)
const total = Object.values(files).reduce((sum, bytes) => sum + bytes.length, 0)

const uploaded = await client.uploadArtifact('legacy-files', Object.keys(files).map((name) => join(source, name)), source, {
  continueOnError: false,
  retentionDays: 3
})
check(uploaded.failedItems.length === 0, `no failed items (${JSON.stringify(uploaded.failedItems)})`)
check(uploaded.artifactItems.length === 3, `uploaded ${uploaded.artifactItems.length} files`)
check(uploaded.size < total, `gzip made the upload smaller: ${uploaded.size} < ${total} bytes`)
const second = await client.uploadArtifact('legacy-second', [join(source, 'notes.txt')], source)
check(second.failedItems.length === 0, 'second artifact uploaded')

const one = join(workspace, 'downloaded-v3')
const downloaded = await client.downloadArtifact('legacy-files', one)
check(downloaded.artifactName === 'legacy-files', `downloaded ${downloaded.artifactName}`)
for (const [name, bytes] of Object.entries(files)) {
  const path = join(one, name)
  check(existsSync(path) && sha256(readFileSync(path)) === sha256(bytes), `downloaded ${name} is identical`)
}

const all = join(workspace, 'downloaded-all-v3')
const everything = await client.downloadAllArtifacts(all)
const names = everything.map((entry) => entry.artifactName).sort()
check(JSON.stringify(names) === JSON.stringify(['legacy-files', 'legacy-second']), `download all gave ${JSON.stringify(names)}`)
check(readFileSync(join(all, 'legacy-second', 'notes.txt')).equals(files['notes.txt']), 'second artifact is identical')

let refused = false
try {
  await client.downloadArtifact('no-such-artifact', join(workspace, 'nothing'))
} catch (error) {
  refused = true
  console.log(`ok: a missing artifact is refused (${error.message.split('\n')[0]})`)
}
check(refused, 'downloading a missing artifact fails')

if (failures.length) {
  console.log(`${failures.length} mismatch(es)`)
  process.exit(1)
}
console.log('official v3 artifact client round trip: all checks passed')
