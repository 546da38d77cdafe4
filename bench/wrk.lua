-- mod97 load script for wrk: POST a fixed JSON body, rotating API keys (one per line in
-- WRK_KEYS) or, for the no-key trial, a new X-Forwarded-For network every 20 requests.
-- done() prints one JSON line that bench/generator.ts reads.
local body = os.getenv("WRK_BODY_FILE") and io.open(os.getenv("WRK_BODY_FILE")):read("*a") or "{}"
local keys = {}
if os.getenv("WRK_KEYS") then
  for line in io.lines(os.getenv("WRK_KEYS")) do keys[#keys + 1] = line end
end
local forwarded = os.getenv("WRK_FORWARDED") == "1"
local idempotency = os.getenv("WRK_IDEMPOTENCY") == "1"
local i = tonumber(os.getenv("WRK_OFFSET") or "0")
local thread_offset = 0

function setup(thread)
  thread_offset = thread_offset + 1
  thread:set("offset", thread_offset * 1000003)
end

function request()
  i = i + 1
  local n = i + (offset or 0)
  local headers = { ["Content-Type"] = "application/json" }
  if #keys > 0 then headers["Authorization"] = "Bearer " .. keys[(n % #keys) + 1] end
  if forwarded then
    local net = math.floor(n / 20)
    headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", math.floor(net / 65536) % 256, math.floor(net / 256) % 256, net % 256)
  end
  -- A fresh key each request (n is unique across threads and runs): every request is a first one.
  if idempotency then headers["Idempotency-Key"] = "bench-" .. n end
  return wrk.format("POST", nil, headers, body)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\nWRK_JSON {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"non2xx":%d,"errors":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.status, e.connect + e.read + e.write + e.timeout))
end
