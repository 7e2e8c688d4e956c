#!/usr/bin/env bash
# Stand-in for ptxas or cuobjdump that fails or hangs, as the real tools do on a damaged input:
#   STANDIN_TOOL_HANG=1   sleep for a minute (advise must stop it at ADVISE_TOOL_TIMEOUT)
#   otherwise             fail with a message on stderr and exit status 255
if [ -n "${STANDIN_TOOL_HANG:-}" ]; then
    exec sleep 60
fi
echo "stuck_cuda_tool: fatal: cannot read the input" >&2
exit 255
