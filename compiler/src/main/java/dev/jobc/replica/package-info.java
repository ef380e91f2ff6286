/**
 * What the kinds of kubeflow/training-operator v1.9.0 run through its common controller share
 * (PyTorchJob, XGBoostJob, JAXJob, PaddleJob): defaulting ({@code SetDefaults_*}: replica keys,
 * counts, restart policies, the default port), the webhooks' common rules and the ones they forgot,
 * and the plan every replica becomes: per replica {@code <job>-<type>-<i>} one pod with the
 * operator's labels and the kind's environment, a headless Service of that name, the pod carried by
 * a one-pod Job or as a bare Pod (one Kueue pod group with a queue name), gang scheduling, and the
 * sidecar beside the replicas that decide the job's outcome. A kind decides its names and
 * environment in its planner; the generators here build the objects from that plan alone. TFJob,
 * which has a plan of its own, calls the same pieces (a replica's Service, Job, Pod, labels, RBAC,
 * gang plan, checks) with its names, container and rules.
 */
package dev.jobc.replica;
