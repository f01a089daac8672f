-- The closed-loop rows of bench/load.py, for wrk 4.1 (`wrk -s bench/wrk_load.lua URL -- FILE N`).
--
-- Without FILE every request is the URL's GET, with the headers given by wrk's -H.
-- With FILE each line is one request, tab-separated: METHOD, PATH, CONTENT-TYPE, COOKIE, BODY.
-- Thread k of N sends lines k, k+N, ... once each, in order (a report is never sent twice: a
-- second copy would be a cheaper, refused or idempotent request); past its last line a thread
-- repeats the last and counts it as "exhausted" (bench/load.py then says the file was short).
--
-- response() counts every answer outside 2xx/3xx by status; done() prints one line,
-- "WRK-JSON {...}", that bench/load.py reads: requests, duration, bytes read (headers
-- included, as sent on the wire), p50/p95 latency in microseconds, the statuses, wrk's socket
-- errors and the exhausted count.

local threads = {}
local counter = 0

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

local function fields(line)
  local found = {}
  for f in (line .. "\t"):gmatch("([^\t]*)\t") do
    table.insert(found, f)
  end
  return found
end

function init(args)
  statuses = {}
  exhausted = 0
  sent = 0
  verified = false
  requests = nil
  local path, count = args[1], tonumber(args[2] or "1")
  if path == nil or path == "" then
    return
  end
  requests = {}
  local n = 0
  for line in io.lines(path) do
    if n % count == id then
      local f = fields(line)
      local headers = {}
      if f[3] ~= "" then headers["Content-Type"] = f[3] end
      if f[4] ~= "" then headers["Cookie"] = f[4] end
      local body = nil
      if f[5] ~= nil and f[5] ~= "" then body = f[5] end
      -- Formatted once here: the loop below only hands out prepared strings.
      table.insert(requests, wrk.format(f[1], f[2], headers, body))
    end
    n = n + 1
  end
end

function request()
  if requests == nil then
    return wrk.request()
  end
  if id == 0 and not verified then
    -- wrk calls request() once on thread 0 before connecting, to count pipelined
    -- requests (script_verify_request): that one is not sent, so it takes no line.
    verified = true
    return requests[1]
  end
  sent = sent + 1
  if sent > #requests then
    exhausted = exhausted + 1
    return requests[#requests]
  end
  return requests[sent]
end

function response(status, headers, body)
  if status < 200 or status >= 400 then
    statuses[status] = (statuses[status] or 0) + 1
  end
end

function done(summary, latency, _)
  local by_status, short = {}, 0
  for _, thread in ipairs(threads) do
    for code, n in pairs(thread:get("statuses")) do
      by_status[code] = (by_status[code] or 0) + n
    end
    short = short + thread:get("exhausted")
  end
  local parts = {}
  for code, n in pairs(by_status) do
    table.insert(parts, string.format('"%d": %d', code, n))
  end
  local e = summary.errors
  io.write(string.format(
    'WRK-JSON {"requests": %d, "duration_us": %d, "bytes": %d, "p50_us": %d, "p95_us": %d, '
      .. '"statuses": {%s}, "socket_errors": %d, "exhausted": %d}\n',
    summary.requests, summary.duration, summary.bytes,
    math.floor(latency:percentile(50)), math.floor(latency:percentile(95)),
    table.concat(parts, ", "), e.connect + e.read + e.write + e.timeout, short
  ))
end
