<#-- Static form of discover_hosts.sh: every initial worker, in mpi-operator's line format. -->
#!/bin/sh
<#list hosts as h>
echo [=h]
</#list>
