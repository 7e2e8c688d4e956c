# Sourced by the GPU scripts (from the repository root): sets ADVISE to the advise binary
# carried to the GPU machine, or ends the script that sourced it with a message. The device
# tool carries at most 64 MiB with the working tree (52 MiB on 2026-11-26) and the release
# binary is 12 MiB, so carry a stripped, compressed one (about 4 MiB), made on the CPU
# machine by
#
#   cargo build --release && mkdir -p build && strip -o build/advise target/release/advise \
#       && gzip -nf9 build/advise      # gives build/advise.gz; carry build/advise.gz
#
# It is unpacked to build/advise here on first use (again when a newer one is carried).
# An ADVISE already set (a path) is kept.
if [ -z "${ADVISE:-}" ]; then
    if [ -f build/advise.gz ] && { [ ! -x build/advise ] || [ build/advise.gz -nt build/advise ]; }; then
        gzip -dc build/advise.gz > build/advise.tmp && chmod +x build/advise.tmp &&
            mv build/advise.tmp build/advise
    fi
    for c in build/advise target/release/advise; do
        if [ -x "$c" ]; then
            ADVISE="$c"
            break
        fi
    done
fi
[ -n "${ADVISE:-}" ] || {
    echo "$(basename "$0" .sh): no advise binary: carry build/advise.gz (scripts/gpu/advise-binary.sh)" >&2
    exit 2
}
