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
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: everything is installed"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
