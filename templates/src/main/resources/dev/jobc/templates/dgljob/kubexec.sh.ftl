<#-- dgl-operator buildConfigMap kubexec.sh (no final newline): dglrun's launch.py passes
     "<pod> -c <container>" as one argument and relies on the unquoted POD_NAME expansion
     splitting it, so the script must not be "fixed". The one change: $POD_NAME for upstream's
     brace form, the same expansion, because Flux's post-build substitution replaces brace forms. -->
#!/bin/sh
set -x
POD_NAME=$1; shift
[=kubectl] exec $POD_NAME -- /bin/sh -c "$*"<#rt>
