-- wrk script: complete sign-ups. Each thread submits an e-mail, then redeems the signed request
-- it got back with create-user; `created` counts the licences. Every sign-up comes from a client
-- address (each call) and a visitor of its own (X-Forwarded-For from a trusted proxy, the hz_id cookie), so the
-- rate limits count and record every call as they would for real visitors without refusing any.
local counter = 0
local pending = {}
local threads = {}
created = 0
failed = 0

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

local function field(body, name)
  return body:match('"' .. name .. '":"([^"]*)"')
end

local function headers()
  counter = counter + 1
  -- Each call in a /24 of its own (the per-network rule holds a /24 to three clients' sign-ups).
  local client = string.format("10.%d.%d.%d", counter % 250, math.floor(counter / 250) % 250, id)
  return {["Content-Type"] = "application/json", ["X-Forwarded-For"] = client}
end

function request()
  local body = table.remove(pending)
  if body then
    return wrk.format("POST", "/api/create-user", headers(), body)
  end
  local email = string.format("bench-%d-%d-%d@example.org", id, counter, math.random(1, 1e9))
  local visitor = string.format("visitor-%d-%d-%d", id, counter, math.random(1, 1e9))
  return wrk.format("POST", "/api/submit-email", headers(),
    '{"email":"' .. email .. '","cookies":{"hz_id":"' .. visitor .. '"}}')
end

function response(status, headers, body)
  if status ~= 200 then
    failed = failed + 1
    return
  end
  if body:find('"form_data"', 1, true) then
    table.insert(pending, string.format(
      '{"email":"%s","user_days":%s,"subscription":"%s","user_comment":"%s","request_id":"%s","sig":"%s"}',
      field(body, "user_email"), body:match('"user_days":(%d+)'), field(body, "subscription"),
      field(body, "user_comment"), field(body, "request_id"), field(body, "sig")))
  elseif body:find('"user_code"', 1, true) then
    created = created + 1
  end
end

function done(summary, latency, requests)
  local total, errors = 0, 0
  for _, thread in ipairs(threads) do
    total = total + thread:get("created")
    errors = errors + thread:get("failed")
  end
  io.write(string.format("CREATED %d FAILED %d SECONDS %.3f\n", total, errors, summary.duration / 1e6))
end
