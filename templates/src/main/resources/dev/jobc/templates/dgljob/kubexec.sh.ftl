<#-- dgl-operator buildConfigMap kubexec.sh, byte for byte (no final newline): dglrun's launch.py
     passes "<pod> -c <container>" as one argument and relies on the unquoted ${POD_NAME}
     splitting it, so the script must not be "fixed". -->
#!/bin/sh
set -x
POD_NAME=$1; shift
[=kubectl] exec ${POD_NAME} -- /bin/sh -c "$*"<#rt>
