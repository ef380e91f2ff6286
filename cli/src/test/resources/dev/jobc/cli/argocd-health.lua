-- Runs an Argo CD health script from argocd-cm as Argo CD does (argoproj/argo-cd, util/lua/lua.go,
-- VM.runLua and VM.ExecuteHealthLua), under Lua 5.1:
--   lua5.1 argocd-health.lua SCRIPT OBJECT
-- OBJECT is a Lua file returning the resource as Argo CD's decodeValue builds it (maps and lists as
-- tables, null as nil). The script sees the global obj and only what Argo CD opens for a script
-- from argocd-cm (useOpenLibs unset): the base, table and os libraries, no string library, so
-- strings have no methods. Prints the status and, on the next line, the message; a script error,
-- or a result that is not a table, exits 1 with the reason on standard error.
local script, object = arg[1], arg[2]
local obj = assert(loadfile(object))()

local env = {
  obj = obj,
  _VERSION = _VERSION,
  assert = assert, error = error, getmetatable = getmetatable, ipairs = ipairs, next = next,
  pairs = pairs, pcall = pcall, print = print, rawequal = rawequal, rawget = rawget,
  rawset = rawset, select = select, setmetatable = setmetatable, tonumber = tonumber,
  tostring = tostring, type = type, unpack = unpack, xpcall = xpcall,
  table = {
    concat = table.concat, insert = table.insert, maxn = table.maxn, remove = table.remove,
    sort = table.sort,
  },
  -- Argo CD's safe os library (util/lua/oslib_safe.go).
  os = { clock = os.clock, date = os.date, difftime = os.difftime, time = os.time },
}
env._G = env

local chunk, loadError = loadfile(script)
if chunk == nil then
  io.stderr:write(loadError, "\n")
  os.exit(1)
end
setfenv(chunk, env)
-- gopher-lua gives strings their methods when it opens the string library, which Argo CD does not.
debug.setmetatable("", nil)
local ok, hs = pcall(chunk)
if not ok then
  io.stderr:write(tostring(hs), "\n")
  os.exit(1)
end
if type(hs) ~= "table" then
  io.stderr:write("expect table output from Lua script, not ", type(hs), "\n")
  os.exit(1)
end
-- The health codes Argo CD accepts (isValidHealthStatusCode); any other becomes Unknown.
local valid = {
  Unknown = true, Progressing = true, Suspended = true, Healthy = true, Degraded = true,
  Missing = true,
}
if not valid[hs.status] then
  hs = { status = "Unknown", message = "Lua returned an invalid health status" }
end
-- Argo CD unmarshals the result into HealthStatus: a message must be a string.
if hs.message ~= nil and type(hs.message) ~= "string" then
  io.stderr:write("message is a ", type(hs.message), ", not a string\n")
  os.exit(1)
end
io.write(hs.status, "\n", hs.message or "", "\n")
