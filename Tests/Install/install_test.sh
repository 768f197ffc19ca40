#!/usr/bin/env bash
# The installed toolkit, used the way a new user uses it, with this clone out of reach (`make test-install`).
#
# 1. `make install PREFIX=<temporary prefix>`; `dataconnect --version` names the version and the commit.
# 2. In a mount namespace where the clone's folder is hidden (an empty tmpfs over it) and with a new HOME (so
#    SwiftPM's caches hold nothing of this clone): README.md's "Start your own project" steps (`dataconnect init
#    --template movies my-app`, validate, generate, build, `make test`, `make emulator` and its console URL), then
#    `make run`, `make postgres` and `make postgres-stop`; then a project pinned to another version is warned about and `dataconnect upgrade` re-pins it.
# 3. The project's Package.swift files and Package.resolved name no path of the clone.
# 4. `make uninstall` leaves the prefix empty.
# 5. The same with the Debian package (`make package`, `apt-get install ./dataconnect_<version>_<arch>.deb`,
#    purged afterwards), when run as root on a machine that does not already have the package installed.
#
# Prints "N passed, N failed" and exits non-zero on any failure.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
passed=0
failed=0
work=$(mktemp -d /tmp/dataconnect-install-test-XXXXXX)
chmod 755 "$work"
deb_installed_here=0
cleanup() {
  if [ "$deb_installed_here" = 1 ]; then apt-get purge -y -qq dataconnect > /dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

check() { # check NAME COMMAND...: runs COMMAND, counts and prints the outcome
  local name=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
    echo "ok: $name"
  else
    failed=$((failed + 1))
    echo "FAILED: $name"
  fi
}

# Runs a shell script as a user whose machine has the toolkit at $1/bin (PATH), Swift, and nothing of this clone.
as_new_user() { # as_new_user BINDIR SCRIPT
  local bindir=$1 script=$2 home
  home=$(mktemp -d "$work/home-XXXXXX")
  # Root makes a mount namespace; anyone else a user namespace with one (where the kernel allows it).
  local namespace=(unshare --mount --propagation private)
  [ "$(id -u)" = 0 ] || namespace=(unshare --user --map-root-user --mount --propagation private)
  "${namespace[@]}" -- bash -c '
    set -e
    mount -t tmpfs -o size=1m,mode=000 tmpfs "$1"
    cd "$2"
    export HOME="$3" PATH="$4:/opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    unset DATACONNECT_TEMPLATES DATACONNECT_SDK_PATH DATACONNECT_PACKAGE_URL FIREBASE_DATA_CONNECT_EMULATOR_HOST
    test ! -e "$1/Makefile" || { echo "the clone is still visible"; exit 1; }
    bash -c "$5"
  ' hidden "$root" "$work" "$home" "$bindir" "$script"
}

# The steps a new user copies first: README.md's "Start your own project" block, from `dataconnect init` on
# (the install is what this test did), verbatim but for `make emulator`, which runs in the background on a free
# port while the console's URL is fetched. Then `make run`, and re-pinning.
readme_steps=$(awk '/<!-- Tests\/Install\/install_test.sh runs/ { marked = 1; next }
  marked && /^```sh/ { inside = 1; next }
  inside && /^```/ { exit }
  inside { print }' README.md | sed -n '/^dataconnect init/,$p' | sed 's/[[:space:]]*#.*$//')
if [ -z "$readme_steps" ] || ! grep -q '^make emulator$' <<< "$readme_steps"; then
  echo "README.md has no 'Start your own project' block ending with make emulator; nothing to run"
  exit 1
fi
readme_steps=$(sed '/^make emulator$/d' <<< "$readme_steps")
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
console_port=$(free_port)
postgres_port=$(free_port)
new_project_script="
set -ex
$readme_steps
"'
make emulator PORT='"$console_port"' > emulator.log 2>&1 &
emulator=$!
for i in $(seq 1200); do grep -q "^ready " emulator.log && break; kill -0 $emulator || { cat emulator.log; exit 1; }; sleep 0.25; done
curl -sf http://127.0.0.1:'"$console_port"'/ | grep -qi "<title>"
pkill -INT -P $emulator; wait $emulator || true
make run PORT=0
# The project starts and stops a PostgreSQL server of its own (dataconnect postgres), outside this clone.
make postgres POSTGRES_PORT='"$postgres_port"' | tee postgres.log
grep -q "^postgres://postgres@127.0.0.1:'"$postgres_port"'/" postgres.log
make postgres-stop | grep -q "^stopped "
# A project pinned to another version: generate warns, upgrade re-pins and regenerates.
sed -i "s/coreSdkVersion: \"[^\"]*\"/coreSdkVersion: \"0.0.1\"/" dataconnect/connector/connector.yaml
sed -i "s/^let dataconnectVersion: Version = \"[^\"]*\"/let dataconnectVersion: Version = \"0.0.1\"/" App/Package.swift
dataconnect generate --backend dataconnect 2> generate.log
grep -q "pinned to the dataconnect SDK 0.0.1" generate.log
dataconnect upgrade .
version=$(dataconnect --version | cut -d" " -f2)
grep -q "coreSdkVersion: \"$version\"" dataconnect/connector/connector.yaml
grep -q "^let dataconnectVersion: Version = \"$version\"" App/Package.swift
swift build --package-path App > /dev/null
'

no_clone_paths() { # no_clone_paths PROJECT: its manifests and pins name no path of the clone
  local project=$1 files
  files=$(find "$project" -name Package.swift -not -path '*/.build/*'; find "$project" -name Package.resolved -not -path '*/.build/*')
  [ -n "$(find "$project" -name Package.resolved -not -path '*/.build/*')" ] || { echo "no Package.resolved in $project"; return 1; }
  if grep -n -F "$root" $files; then echo "the lines above name the clone ($root)"; return 1; fi
  if grep -rn -F "$root" "$project/dataconnect"; then echo "the lines above name the clone ($root)"; return 1; fi
  echo "no path of $root in: $(echo $files | tr '\n' ' ')"
}

# 1-4: make install into a temporary prefix.
prefix="$work/prefix"
echo "== make install PREFIX=$prefix"
check "make install" make --no-print-directory install PREFIX="$prefix"
version=$("$prefix/bin/dataconnect" --version)
echo "$version"
check "--version names the version and the commit" \
  grep -Eq "^dataconnect [0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-f]{7,}.*, installed in $prefix\)$" <<< "$version"
echo "== a new project from the installed toolkit, with the clone hidden"
mkdir -p "$work/user"
check "README's steps, make run, upgrade (installed in a prefix)" as_new_user "$prefix/bin" "cd $work/user && $new_project_script"
check "the project names no path of the clone" no_clone_paths "$work/user/my-app"
check "the project pins the installed toolkit" grep -q "file://$prefix/share/dataconnect/DataConnect.git" "$work/user/my-app/App/Package.swift"
echo "== make uninstall PREFIX=$prefix"
check "make uninstall" make --no-print-directory uninstall PREFIX="$prefix"
check "uninstall leaves the prefix empty" test -z "$(find "$prefix" -mindepth 1 2>/dev/null)"

# 5: the Debian package.
if [ "$(id -u)" != 0 ]; then
  echo "SKIPPED: the .deb (installing it needs root)"
elif dpkg-query -W -f='${Status}' dataconnect 2>/dev/null | grep -q "install ok installed"; then
  echo "SKIPPED: the .deb (a dataconnect package is already installed on this machine; this test does not replace it)"
else
  echo "== make package, apt-get install ./dataconnect_<version>.deb"
  check "make package" make --no-print-directory package
  deb=$(ls -t .build/dataconnect_*.deb | head -1)
  dpkg-deb --field "$deb" Package Version Architecture Maintainer Depends
  check "the control file" bash -c "dpkg-deb --field '$deb' Package Version Architecture Maintainer Depends Description | grep -q '^Version: [0-9]'"
  deb_installed_here=1
  check "apt-get install ./$(basename "$deb")" apt-get install -y -qq "./$deb"
  check "/usr/bin/dataconnect --version" bash -c "/usr/bin/dataconnect --version | grep -q 'installed in /usr)'"
  mkdir -p "$work/deb-user"
  check "README's steps, make run, upgrade (the .deb)" as_new_user /usr/bin "cd $work/deb-user && $new_project_script"
  check "the .deb project names no path of the clone" no_clone_paths "$work/deb-user/my-app"
  check "apt-get purge dataconnect" apt-get purge -y -qq dataconnect
  deb_installed_here=0
  check "the purge leaves nothing in /usr/share/dataconnect" test ! -e /usr/share/dataconnect
fi

echo "install tests: $passed passed, $failed failed"
[ "$failed" = 0 ]
