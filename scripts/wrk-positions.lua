-- wrk script: each request asks /analyze for a position picked at random from a
-- file of lines "MOVES [SCORE]" (the bundled testsets' format); wrk counts the
-- answers that are not 2xx ("Non-2xx or 3xx responses").
--   wrk -t2 -c50 -d20s --latency -s scripts/wrk-positions.lua http://127.0.0.1:8080 -- testsets/middle-medium
local paths = {}

function init(args)
  for line in io.lines(args[1]) do
    local moves = line:match("^(%d*)")
    paths[#paths + 1] = "/analyze?pos=" .. moves
  end
  math.randomseed(os.time() + math.floor(os.clock() * 1e6))
end

function request()
  return wrk.format("GET", paths[math.random(#paths)])
end
