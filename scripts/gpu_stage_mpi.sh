#!/usr/bin/env bash
# Stages Debian's Open MPI (mpirun, its components and the libraries they load) into .gpu/mpi/
# for the GPU machine, which has none, after ../shared/gpu/stage wrote .gpu/. There, after
# `. .gpu/prelude.sh`, `. .gpu/mpi/env.sh` unpacks it and sets what mpirun needs as root in a
# container with no ssh (local launches only).
set -euo pipefail
root=$(git rev-parse --show-toplevel)
dest="$root/.gpu/mpi"
[ -d "$root/.gpu" ] || { echo "gpu_stage_mpi: run ../shared/gpu/stage first" >&2; exit 2; }
rm -rf "$dest"; mkdir -p "$dest/debs" /tmp/amd64-lists/partial
o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64-lists'
apt-get $o update -qq
pkgs="openmpi-bin openmpi-common libopenmpi3 libpmix2 libhwloc15 libhwloc-plugins libevent-core-2.1-7
      libevent-pthreads-2.1-7 libevent-2.1-7 libfabric1 libibverbs1 librdmacm1 libnl-3-200 libnl-route-3-200
      libpsm-infinipath1 libpsm2-2 libucx0 libmunge2 libnuma1 libxml2 libicu72"
(cd "$dest/debs" && apt-get $o download -qq $pkgs)
cat > "$dest/env.sh" <<'ENV'
# Source after .gpu/prelude.sh: Open MPI at its Debian paths (nothing of Ubuntu's is replaced: the
# packages go to a folder first and only missing files are copied over).
_m=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p /tmp/mpiroot; for f in "$_m"/debs/*.deb; do dpkg -x "$f" /tmp/mpiroot; done
cp -rn /tmp/mpiroot/. / 2>/dev/null; ldconfig
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_plm=isolated OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_mca_base_component_show_load_errors=0
mpirun --version | head -1
unset _m
ENV
du -sh "$dest"
