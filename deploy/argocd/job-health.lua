-- Argo CD health check for batch/Job, the argocd-cm key resource.customizations.health.batch_Job
-- (kustomization.yaml puts it there). It is Argo CD's built-in check for Jobs
-- (argoproj/gitops-engine pkg/health/health_job.go, getBatchv1JobHealth), with one exception: a
-- Job that jobc's sidecar suspended to end a replica (annotation jobc.dev/stopped-by, as when a
-- TFJob's chief succeeds and its workers and parameter servers are ended) is Healthy, not
-- Suspended: it will never run again, and the built-in check would keep the Application Suspended
-- after the job has succeeded. A Job suspended in Git carries no such annotation and stays
-- Suspended. Lua 5.1 with the base, table and os libraries only, as Argo CD runs it.
local hs = {}
local failed, complete, suspended = false, false, false
local failMessage, message = "", ""
local conditions = {}
if obj.status ~= nil and obj.status.conditions ~= nil then
  conditions = obj.status.conditions
end
for _, condition in ipairs(conditions) do
  if condition.type == "Failed" then
    failed = true
    complete = true
    failMessage = condition.message or ""
  elseif condition.type == "Complete" then
    complete = true
    message = condition.message or ""
  elseif condition.type == "Suspended" then
    complete = true
    message = condition.message or ""
    if condition.status == "True" then
      suspended = true
    end
  end
end

local stoppedBy = nil
if obj.metadata ~= nil and obj.metadata.annotations ~= nil then
  stoppedBy = obj.metadata.annotations["jobc.dev/stopped-by"]
end

if not complete then
  hs.status = "Progressing"
  hs.message = message
elseif failed then
  hs.status = "Degraded"
  hs.message = failMessage
elseif suspended and stoppedBy ~= nil then
  hs.status = "Healthy"
  hs.message = "ended by jobc-sidecar for " .. stoppedBy
elseif suspended then
  hs.status = "Suspended"
  hs.message = message
else
  hs.status = "Healthy"
  hs.message = message
end
return hs
