#!/usr/bin/env bash
# Runs mongo-java-server (in memory) in the foreground on 127.0.0.1:PORT (default 27027), so the
# events-API bench can be run against a database that costs far less per event than SecantusDB:
#   bash bench/memory-mongo/run.sh 27027 &
#   BENCH_MONGODB_URL='mongodb://127.0.0.1:27027/bench?retryWrites=false&directConnection=true' \
#   BENCH_MONGODB_PID=$(pgrep -f 'MemoryMongo 27027') npm run bench:compare
# It keeps nothing on disk and has no transactions or change streams: a bench tool, not a
# server for the stack (docs/database.md).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source-path=SCRIPTDIR source=../../deploy/local/lib.sh
source "$here/../../deploy/local/lib.sh"
port="${1:-27027}"
dir="$CACHE/memory-mongo"
if [[ ! -f "$dir/classes/MemoryMongo.class" || "$here/MemoryMongo.java" -nt "$dir/classes/MemoryMongo.class" ]]; then
  rm -rf "$dir"
  mkdir -p "$dir/classes"
  echo "memory-mongo: downloading mongo-java-server's jars (first run only)"
  mvn -q -B -Dstyle.color=never -f "$here/pom.xml" org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
    -DoutputDirectory="$dir/libs" -DincludeScope=runtime
  javac -d "$dir/classes" -cp "$dir/libs/*" "$here/MemoryMongo.java"
fi
exec java -Xms1g -Xmx6g -cp "$dir/libs/*:$dir/classes" MemoryMongo "$port"
