-- wrk script: the traffic of many open pages. Nine calls in ten poll (user count, server status),
-- the rest sign up, check a licence or download the personal archive. Counts non-2xx/304 answers.
local counter = 0
local threads = {}
local pending = {}
local licences = {}
bad = 0
served = 0

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

local function field(body, name)
  return body:match('"' .. name .. '":"([^"]*)"')
end

function request()
  counter = counter + 1
  local roll = math.random(100)
  local queued = table.remove(pending)
  if queued then
    return wrk.format("POST", "/api/create-user", {["Content-Type"] = "application/json"}, queued)
  end
  if roll <= 60 then
    return wrk.format("GET", "/api/user-count")
  elseif roll <= 90 then
    return wrk.format("GET", "/api/server-status")
  elseif roll <= 95 or #licences == 0 then
    local email = string.format("load-%d-%d-%d@example.org", id, counter, math.random(1, 1e9))
    return wrk.format("POST", "/api/submit-email", {["Content-Type"] = "application/json"}, '{"email":"' .. email .. '"}')
  elseif roll <= 98 then
    local licence = licences[math.random(#licences)]
    return wrk.format("POST", "/api/check-license", {["Content-Type"] = "application/json"},
      '{"email":"' .. licence.email .. '","activation_code":"' .. licence.code .. '"}')
  else
    local licence = licences[math.random(#licences)]
    return wrk.format("GET", licence.archive)
  end
end

function response(status, headers, body)
  if (status >= 200 and status < 300) or status == 304 then
    served = served + 1
  else
    bad = bad + 1
  end
  if status ~= 200 then
    return
  end
  if body:find('"form_data"', 1, true) then
    table.insert(pending, string.format(
      '{"email":"%s","user_days":%s,"subscription":"%s","user_comment":"%s","request_id":"%s","sig":"%s"}',
      field(body, "user_email"), body:match('"user_days":(%d+)'), field(body, "subscription"),
      field(body, "user_comment"), field(body, "request_id"), field(body, "sig")))
  elseif body:find('"user_code"', 1, true) and #licences < 200 then
    local archive = field(body, "activation_url")
    table.insert(licences, {email = field(body, "user_email"), code = field(body, "user_code"),
                            archive = archive and archive:match("https?://[^/]+(/.*)") or "/api/user-count"})
  end
end

function done(summary, latency, requests)
  local ok, failed = 0, 0
  for _, thread in ipairs(threads) do
    ok = ok + thread:get("served")
    failed = failed + thread:get("bad")
  end
  io.write(string.format("MIX requests %d rps %.0f p50 %.2f p99 %.2f ok %d failed %d errors %d\n",
    summary.requests, summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, ok, failed,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
