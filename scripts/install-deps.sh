#!/usr/bin/env bash
# Installs what tilempi needs from Debian's archive, skipping what is already there.
set -euo pipefail
packages=(
  build-essential cmake pkg-config git
  libhwloc-dev libnuma-dev libomp-dev
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev
  gnuplot-nox gfortran
  python3              # test scripts read the JSON run reports
  mpich libmpich-dev   # only to check that the NPB kernels are honest MPI codes
  clang libclang-rt-dev  # the fuzz targets (libFuzzer; scripts/fuzz.sh)
  slurmctld slurmd munge slurm-client  # test bench.slurm starts a single-node Slurm cluster (sweeps --slurm)
)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
updated=no

# install PACKAGE...: installs those not installed yet.
install() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "install-deps: installing ${missing[*]}"
  if [ $updated = no ]; then
    $sudo apt-get update -qq
    updated=yes
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

install "${packages[@]}"
# The opcount plugin (apps/opcount) is built against the headers of the GCC that loads it.
install "gcc-$(gcc -dumpversion | cut -d. -f1)-plugin-dev"
[ $updated = yes ] || echo "install-deps: everything is installed"
