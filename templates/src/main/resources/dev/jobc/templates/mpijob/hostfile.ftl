<#-- One line per host: "host slots=N" for Open MPI, "host:N" for Intel MPI and MPICH
     (mpi-operator newConfigMap). Interpolation uses [=...] so shell ${...} stays literal. -->
<#list hosts as h>
[=h.host]<#if hydra>:[=h.slots]<#else> slots=[=h.slots]</#if>
</#list>
