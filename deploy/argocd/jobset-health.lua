-- Argo CD health check for jobset.x-k8s.io/JobSet, the argocd-cm key
-- resource.customizations.health.jobset.x-k8s.io_JobSet (kustomization.yaml puts it there).
-- The JobSet's status as kubernetes-sigs/jobset v0.12.0 writes it (api/jobset/v1alpha2/jobset_types.go,
-- pkg/controllers): Completed and Failed are terminal and set with status.terminalState; Suspended
-- is True while spec.suspend holds (False, "jobset is resumed", once resumed); RestartingJobSet is
-- True while a failure policy recreates the Jobs, status.restarts counting the restarts.
-- Argo CD runs a script from argocd-cm in gopher-lua (Lua 5.1) with the base, table and os
-- libraries only: no string library, so no string methods either.
local hs = {}

local function trueCondition(conditions, conditionType)
  for _, condition in ipairs(conditions) do
    if condition.type == conditionType and condition.status == "True" then
      return condition
    end
  end
  return nil
end

-- The controller writes the first status on its first reconcile of the JobSet.
if obj.status == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for the JobSet controller"
  return hs
end

local conditions = obj.status.conditions or {}
local restarts = obj.status.restarts or 0

-- Failed and Completed are final (the controller sets status.terminalState with them), Failed
-- first; then Suspended. The message is the condition's, for example "jobset failed due to one or
-- more job failures (first failed job: pi-launcher-0)".
local decided = {
  { condition = "Failed", health = "Degraded" },
  { condition = "Completed", health = "Healthy" },
  { condition = "Suspended", health = "Suspended" },
}
for _, d in ipairs(decided) do
  local condition = trueCondition(conditions, d.condition)
  if condition ~= nil or obj.status.terminalState == d.condition then
    hs.status = d.health
    hs.message = (condition ~= nil and condition.message) or ("JobSet " .. d.condition)
    return hs
  end
end

hs.status = "Progressing"
local restarting = trueCondition(conditions, "RestartingJobSet")
if restarting ~= nil then
  hs.message = "Restarting (restarts: " .. restarts .. "): " .. (restarting.message or "")
  return hs
end
local startup = trueCondition(conditions, "StartupPolicyInProgress")
if startup ~= nil then
  hs.message = startup.message or ""
  return hs
end

-- Running: per replicated Job, its Jobs ready or succeeded out of its replicas (the count the
-- controller's allJobsReady compares), in the order of status.replicatedJobsStatus.
local replicas = {}
if obj.spec ~= nil and obj.spec.replicatedJobs ~= nil then
  for _, replicatedJob in ipairs(obj.spec.replicatedJobs) do
    replicas[replicatedJob.name] = replicatedJob.replicas or 1
  end
end
local parts = {}
for _, s in ipairs(obj.status.replicatedJobsStatus or {}) do
  local ready = (s.ready or 0) + (s.succeeded or 0)
  table.insert(parts, s.name .. " " .. ready .. "/" .. (replicas[s.name] or "?"))
end
hs.message = "Jobs ready: " .. table.concat(parts, ", ")
if #parts == 0 then
  hs.message = "Waiting for the JobSet's Jobs"
end
if restarts > 0 then
  hs.message = hs.message .. " (restarts: " .. restarts .. ")"
end
return hs
