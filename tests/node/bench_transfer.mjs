// The official @actions/artifact client, one transfer at a time, for the artifact benchmark
// (benchmarks/transfer_client.py, mode "official"). It runs inside a mock-runner exec job.
// Requests come as JSON lines on stdin; each answer is one JSON line on the file descriptor given as the
// first argument, because @actions/core writes its own log lines to stdout.
//   {"op":"upload","file":F,"level":null|0-9}         -> {"size","sha256","id"}   (null: skipArchive, the raw
//                                                       file; else a zip of F at that compression level)
//   {"op":"download","id":N,"dir":D,"expectedHash":H} -> {"size","digestMismatch","path"}  (zips are extracted)
import { DefaultArtifactClient } from '@actions/artifact'
import { createInterface } from 'node:readline'
import { writeSync, statSync, readdirSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

const replyFd = Number(process.argv[2])
const client = new DefaultArtifactClient()
const reply = (answer) => writeSync(replyFd, JSON.stringify(answer) + '\n')

async function handle(request) {
  if (request.op === 'upload') {
    const raw = request.level === null || request.level === undefined
    const options = raw ? { skipArchive: true } : { compressionLevel: request.level }
    const uploaded = await client.uploadArtifact(`bench-${basename(request.file)}`, [request.file], dirname(request.file), options)
    return { size: uploaded.size, sha256: uploaded.digest, id: uploaded.id }
  }
  if (request.op === 'download') {
    const result = await client.downloadArtifact(request.id, { path: request.dir, expectedHash: request.expectedHash })
    const names = readdirSync(request.dir)
    if (names.length !== 1) throw new Error(`download left ${names.length} files in ${request.dir}`)
    const path = join(request.dir, names[0])
    return { size: statSync(path).size, digestMismatch: result.digestMismatch, path }
  }
  throw new Error(`unknown op ${request.op}`)
}

reply({ ready: true })
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue
  try {
    reply(await handle(JSON.parse(line)))
  } catch (error) {
    reply({ error: String(error?.stack || error) })
  }
}
