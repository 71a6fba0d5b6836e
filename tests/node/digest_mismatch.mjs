// The official @actions/artifact client meets an artifact whose stored bytes were changed behind the server's
// back: it uploads a single file, tells the test (a marker file in the directory given as argument), waits until
// the test has corrupted the stored copy, then downloads it against the listed digest, which must be reported
// as a mismatch. Exits non-zero when the client does not notice.
import { DefaultArtifactClient } from '@actions/artifact'
import { createHash } from 'node:crypto'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

const sync = process.argv[2]
if (!sync) throw new Error('usage: node digest_mismatch.mjs SYNC_DIRECTORY')
const client = new DefaultArtifactClient()
const workspace = process.env.GITHUB_WORKSPACE || process.cwd()
const bytes = Buffer.from('bytes the server will be made to serve wrongly\n'.repeat(64))
const file = join(workspace, 'tampered.txt')
writeFileSync(file, bytes)

const uploaded = await client.uploadArtifact('ignored-for-raw', [file], workspace, { skipArchive: true })
writeFileSync(join(sync, 'uploaded'), String(uploaded.id))
for (let waited = 0; !existsSync(join(sync, 'corrupted')); waited += 100) {
  if (waited > 120000) throw new Error('the test never corrupted the stored artifact')
  await sleep(100)
}

const { artifact } = await client.getArtifact('tampered.txt')
const expected = `sha256:${createHash('sha256').update(bytes).digest('hex')}`
console.log(`listed digest: ${artifact.digest} (uploaded ${expected})`)
const outcome = await client.downloadArtifact(artifact.id, { path: join(workspace, 'back'), expectedHash: artifact.digest })
if (artifact.digest !== expected || outcome.digestMismatch !== true) {
  console.log(`MISMATCH: digestMismatch is ${outcome.digestMismatch}, listed digest ${artifact.digest}`)
  process.exit(1)
}
console.log('the official client reported the digest mismatch')
