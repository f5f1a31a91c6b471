#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Installs the Debian/Ubuntu packages chatbench needs to build and trace,
# with --test also those its tests use, and with --dev those and the tools
# for editing the code (clang-format, for make format); with --arm64 the
# cross compiler, Debian's arm64 libraries (multiarch) and qemu-user for
# make ARCH=arm64 and make check-arm64; only those that are missing.
# Needs root (or sudo).
set -euo pipefail

sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo

# scdoc: the man pages (make man, make install).
pkgs=(make gcc clang llvm pkg-config libbpf-dev libelf-dev zlib1g-dev
	libjansson-dev libdw-dev scdoc)
if [ "${1:-}" = --test ] || [ "${1:-}" = --dev ]; then
	# man-db: tests/integration/install.bats renders the pages (man -l).
	pkgs+=(libcmocka-dev bats jq bpftrace linux-perf libxml2-utils
		python3 chromium util-linux iproute2 libclang-rt-dev man-db)
fi
if [ "${1:-}" = --dev ]; then
	pkgs+=(clang-format)
fi
# bats: make check-arm64's loopback suite (tests/cross/).
if [ "${1:-}" = --arm64 ] && [ "$(dpkg --print-architecture)" = arm64 ]; then
	pkgs+=(libcmocka-dev bats)	# an arm64 machine builds natively
elif [ "${1:-}" = --arm64 ]; then
	# The libraries are the arm64 builds of Debian's own packages, so
	# dpkg must know the architecture before apt can see them.
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		echo "adding the arm64 architecture to dpkg (multiarch)"
		$sudo dpkg --add-architecture arm64
	fi
	pkgs+=(gcc-aarch64-linux-gnu qemu-user-static bats libc6-dev:arm64
		libbpf-dev:arm64 libelf-dev:arm64 libdw-dev:arm64
		zlib1g-dev:arm64 libjansson-dev:arm64 libcmocka-dev:arm64)
fi
# Debian ships bpftool on its own; Ubuntu inside linux-tools.
if apt-cache show bpftool >/dev/null 2>&1 || ! command -v bpftool >/dev/null; then
	pkgs+=(bpftool)
fi

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
if ! $sudo apt-get install -y -qq "${missing[@]}" >/dev/null; then
	# Ubuntu names: bpftool comes with the kernel's linux-tools.
	missing=("${missing[@]/bpftool/linux-tools-common}")
	missing=("${missing[@]/linux-perf/linux-tools-generic}")
	missing=("${missing[@]/chromium/chromium-browser}")
	missing=("${missing[@]/libclang-rt-dev/libclang-common-14-dev}")
	$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
