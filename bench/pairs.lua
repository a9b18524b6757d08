-- wrk script: the anchor's sign-up, a pair of calls: /echo (parses JSON, writes nothing), then
-- /insert (parses JSON, one INSERT and its COMMIT); `pairs` counts the inserts answered.
local threads = {}
pairs_done = 0
failed = 0
local next_insert = false

function setup(thread)
  table.insert(threads, thread)
end

function request()
  next_insert = not next_insert
  local path = next_insert and "/echo" or "/insert"
  return wrk.format("POST", path, {["Content-Type"] = "application/json"},
    '{"email":"bench@example.org","cookies":{"hz_id":"visitor"}}')
end

function response(status, headers, body)
  if status ~= 200 then
    failed = failed + 1
  elseif body:find('"success":true}', 1, true) and not body:find('"got"', 1, true) then
    pairs_done = pairs_done + 1
  end
end

function done(summary, latency, requests)
  local total, errors = 0, 0
  for _, thread in ipairs(threads) do
    total = total + thread:get("pairs_done")
    errors = errors + thread:get("failed")
  end
  io.write(string.format("CREATED %d FAILED %d SECONDS %.3f\n", total, errors, summary.duration / 1e6))
end
