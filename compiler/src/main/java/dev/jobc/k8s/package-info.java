/**
 * Kubernetes object pieces every kind's generators share: object metadata, pod-template parts
 * (volumes, mounts, DNS, the kubectl copy), RBAC for a launcher, headless Services, and quantity
 * arithmetic. Pure functions of their arguments; nothing here knows a job kind.
 */
package dev.jobc.k8s;
