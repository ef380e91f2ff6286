#!/usr/bin/env bash
# Memory one `kubectl exec` session holds in the launcher (docs/mpijob.md, "Launcher memory"): N sessions
# at once against a stand-in API server that serves discovery and the pod, accepts the exec
# upgrade (WebSocket, v5.channel.k8s.io) over TLS with a bearer token, and holds every stream
# open. Measured twice: with Go's defaults, and with the Go settings of the kubexec.sh that
# `bin/jobc render examples/pi.yaml` renders. Needs kubectl, python3 and openssl.
#
#   bench/kubexec-bench.sh            # 20 sessions, kubectl from the PATH
#   bench/kubexec-bench.sh -n 50 -k /path/to/kubectl
#   bench/kubexec-bench.sh --smoke    # (or -s) 2 sessions, 1 s settle: checks the bench works
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
smoke_args "$@"
set -- "${SMOKE_ARGS[@]+"${SMOKE_ARGS[@]}"}"

sessions=20
kubectl=kubectl
settle=3
while getopts "n:k:s" opt; do
  case $opt in
    n) sessions=$OPTARG ;;
    k) kubectl=$OPTARG ;;
    s) sessions=2 settle=1 ;;
    *) echo "usage: $0 [-n SESSIONS] [-k KUBECTL] [-s | --smoke]" >&2; exit 2 ;;
  esac
done
[[ $sessions =~ ^[1-9][0-9]*$ ]] || { echo "kubexec-bench: -n takes a positive number" >&2; exit 2; }
for tool in "$kubectl" python3 openssl; do
  command -v "$tool" >/dev/null || { echo "$tool is not on the PATH" >&2; exit 1; }
done

work=$(mktemp -d)
server=""
cleanup() {
  [[ -n $server ]] && kill "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# What kubexec.sh exports for kubectl, as jobc renders it.
go_env=$(bin/jobc render examples/pi.yaml | sed -n 's/^ *export \(GO.*\)$/\1/p')
[[ -n $go_env ]] || { echo "no Go settings found in the rendered kubexec.sh" >&2; exit 1; }

openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/ca.key" -out "$work/ca.crt" \
  -subj /CN=stand-in-ca -days 1 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout "$work/server.key" -out "$work/server.csr" \
  -subj /CN=kubernetes 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\n' >"$work/ext"
openssl x509 -req -in "$work/server.csr" -CA "$work/ca.crt" -CAkey "$work/ca.key" \
  -CAcreateserial -out "$work/server.crt" -days 1 -extfile "$work/ext" 2>/dev/null

cat >"$work/apiserver.py" <<'EOF'
import base64, hashlib, json, socket, ssl, sys, threading

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
work = sys.argv[1]
RESOURCES = [
    {"name": "pods", "singularName": "pod", "namespaced": True, "kind": "Pod",
     "verbs": ["get", "list"], "shortNames": ["po"]},
    {"name": "pods/exec", "singularName": "", "namespaced": True, "kind": "PodExecOptions",
     "verbs": ["create", "get"]},
]
DISCOVERY = {
    "api": {"kind": "APIVersions", "versions": ["v1"],
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": ""}]},
    "apis": {"kind": "APIGroupList", "apiVersion": "v1", "groups": []},
    "api/v1": {"kind": "APIResourceList", "groupVersion": "v1", "resources": RESOURCES},
}
lock = threading.Lock()
upgraded = 0

def reply(conn, status, body):
    data = json.dumps(body).encode()
    conn.sendall(b"HTTP/1.1 %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                 % (status.encode(), len(data)) + data)

def handle(conn):
    global upgraded
    f = conn.makefile("rb")
    while True:
        line = f.readline().decode()
        if not line:
            return
        method, target, _ = line.split(" ", 2)
        headers = {}
        while (h := f.readline().decode()) not in ("\r\n", "\n", ""):
            k, v = h.split(":", 1)
            headers[k.strip().lower()] = v.strip()
        path = target.split("?")[0].strip("/")
        parts = path.split("/")
        if path.endswith("/exec") and headers.get("upgrade", "").lower() == "websocket":
            offered = [p.strip() for p in headers.get("sec-websocket-protocol", "").split(",")]
            proto = next(p for p in ("v5.channel.k8s.io", "v4.channel.k8s.io") if p in offered)
            key = headers["sec-websocket-key"] + GUID
            accept = base64.b64encode(hashlib.sha1(key.encode()).digest()).decode()
            conn.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                          "Connection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n"
                          "Sec-WebSocket-Protocol: %s\r\n\r\n" % (accept, proto)).encode())
            with lock:
                upgraded += 1
                open(work + "/upgraded", "w").write(str(upgraded))
            while f.read(1):  # hold the stream open until the client goes
                pass
            return
        if method == "GET" and path in DISCOVERY:
            reply(conn, "200 OK", DISCOVERY[path])
        elif method == "GET" and len(parts) == 6 and parts[4] == "pods":
            reply(conn, "200 OK", {
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": parts[5], "namespace": parts[3]},
                "spec": {"containers": [{"name": "worker", "image": "mpi"}]},
                "status": {"phase": "Running"}})
        else:
            reply(conn, "404 Not Found", {"kind": "Status", "apiVersion": "v1", "code": 404})

srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1024)
open(work + "/port", "w").write(str(srv.getsockname()[1]))
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(work + "/server.crt", work + "/server.key")
while True:
    c, _ = srv.accept()
    try:
        c = ctx.wrap_socket(c, server_side=True)
    except (ssl.SSLError, OSError):
        c.close()
        continue
    threading.Thread(target=handle, args=(c,), daemon=True).start()
EOF
python3 "$work/apiserver.py" "$work" &
server=$!
until [[ -s $work/port ]]; do sleep 0.1; done
cat >"$work/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:$(cat "$work/port")", certificate-authority: $work/ca.crt}}]
users: [{name: u, user: {token: stand-in-token}}]
contexts: [{name: c, context: {cluster: c, user: u, namespace: default}}]
current-context: c
EOF
mkdir -p "$work/home"
# One session first, so that every measured one finds kubectl's discovery cache in HOME.
KUBECONFIG=$work/kubeconfig HOME=$work/home "$kubectl" get pod pi-worker-0 >/dev/null

# measure LABEL [NAME=VALUE...]: N sessions at once with that environment.
measure() {
  local label=$1
  shift
  local before pids=() i
  before=$(cat "$work/upgraded" 2>/dev/null || echo 0)
  for ((i = 0; i < sessions; i++)); do
    env KUBECONFIG="$work/kubeconfig" HOME="$work/home" "$@" \
      "$kubectl" exec "pi-worker-$i" -- /bin/sh -c true >/dev/null 2>&1 &
    pids+=($!)
  done
  local deadline=$((SECONDS + 60 + sessions))
  until [[ $(cat "$work/upgraded" 2>/dev/null || echo 0) -ge $((before + sessions)) ]]; do
    if ((SECONDS > deadline)); then
      echo "kubexec-bench: only $(($(cat "$work/upgraded" 2>/dev/null || echo 0) - before)) of $sessions exec sessions reached the stand-in API server" >&2
      kill "${pids[@]}" 2>/dev/null || true
      exit 1
    fi
    sleep 0.2
  done
  sleep "$settle" # let each kubectl settle after the upgrade
  local p
  for p in "${pids[@]}"; do
    [[ -r /proc/$p/smaps_rollup ]] || { echo "kubexec-bench: kubectl $p ended before it was measured" >&2; exit 1; }
    awk '/^Rss:/ {r = $2} /^Anonymous:/ {a = $2} END {printf "%d %d ", r, a}' "/proc/$p/smaps_rollup"
    awk '/^VmPTE:/ {print $2}' "/proc/$p/status"
  done | awk -v n="$sessions" -v label="$label" '
    {r += $1; a += $2; t += $3}
    END {printf "%-34s %d sessions, mean per session: RSS %.1f MB, anonymous %.1f MB, page tables %.2f MB\n",
                label, n, r / n / 1024, a / n / 1024, t / n / 1024}'
  kill "${pids[@]}" 2>/dev/null || true
  wait "${pids[@]}" 2>/dev/null || true
}

"$kubectl" version --client 2>/dev/null | sed -n 1p
measure "Go defaults"
# shellcheck disable=SC2086 # the rendered settings are NAME=VALUE words
measure "kubexec.sh: $go_env" $go_env
