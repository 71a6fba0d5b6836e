// The official @actions/cache client (cache service v1) restoring a directory saved by cache_save.mjs.
// Usage: node cache_restore.mjs OUT_DIR PRIMARY_KEY RESTORE_KEY [--expect-miss]
// Restores `cached/` into the job's workspace (by PRIMARY_KEY, else the newest entry whose key starts with
// RESTORE_KEY) and copies it to OUT_DIR for the caller to compare bytes. With --expect-miss it succeeds only
// when nothing is restored.
import * as cache from '@actions/cache'
import { cpSync, existsSync } from 'node:fs'
import { join } from 'node:path'

const [out, primary, restoreKey, flag] = process.argv.slice(2)
if (!out || !primary || !restoreKey) {
  console.log('usage: node cache_restore.mjs OUT_DIR PRIMARY_KEY RESTORE_KEY [--expect-miss]')
  process.exit(2)
}
const expectMiss = flag === '--expect-miss'
const workspace = process.env.GITHUB_WORKSPACE || process.cwd()
process.chdir(workspace)
if (!cache.isFeatureAvailable()) {
  console.log('MISMATCH: the job has no ACTIONS_CACHE_URL, so @actions/cache sees no cache service')
  process.exit(1)
}
const matched = await cache.restoreCache(['cached'], primary, [restoreKey])
if (matched === undefined) {
  console.log('cache miss')
  process.exit(expectMiss ? 0 : 1)
}
console.log(`cache restored from key ${matched}`)
if (expectMiss) {
  console.log('MISMATCH: a cache was restored where none should be visible')
  process.exit(1)
}
if (!existsSync(join(workspace, 'cached'))) {
  console.log('MISMATCH: restoreCache reported a hit but cached/ is missing')
  process.exit(1)
}
cpSync(join(workspace, 'cached'), out, { recursive: true })
