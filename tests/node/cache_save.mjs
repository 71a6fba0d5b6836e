// The official @actions/cache client (cache service v1, the protocol act_runner serves) saving a directory.
// Usage: node cache_save.mjs SOURCE_DIR KEY
// Copies SOURCE_DIR into the job's workspace as `cached/` and saves it under KEY, in small chunks so that
// several are sent at once. Exits non-zero when the client finds no cache service or the save fails.
import * as cache from '@actions/cache'
import { cpSync } from 'node:fs'
import { join } from 'node:path'

const [source, key] = process.argv.slice(2)
if (!source || !key) {
  console.log('usage: node cache_save.mjs SOURCE_DIR KEY')
  process.exit(2)
}
const workspace = process.env.GITHUB_WORKSPACE || process.cwd()
process.chdir(workspace)
if (!cache.isFeatureAvailable()) {
  console.log('MISMATCH: the job has no ACTIONS_CACHE_URL, so @actions/cache sees no cache service')
  process.exit(1)
}
cpSync(source, join(workspace, 'cached'), { recursive: true })
// 64 KiB chunks (the client's default is 32 MiB) and 4 at a time: the server sees concurrent PATCHes at offsets
const id = await cache.saveCache(['cached'], key, { uploadChunkSize: 64 * 1024, uploadConcurrency: 4 })
if (!(id > 0)) {
  console.log(`MISMATCH: saveCache returned ${id}`)
  process.exit(1)
}
console.log(`cache saved: key ${key}, id ${id}`)
