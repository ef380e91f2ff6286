<#-- hostfile, partfile and leadfile lines in dgl-operator's formats
     ("%s %d %s slots=%d\n" for workers, "%s %d %s\n" otherwise), with DNS names for addresses. -->
<#list peers as p>
[=p.host] [=p.port] [=p.pod]<#if (p.slots > 0)> slots=[=p.slots]</#if>
</#list>
