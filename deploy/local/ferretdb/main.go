// Command ferretdb-local runs FerretDB 1.x (MongoDB wire protocol on SQLite)
// for local development and tests. It embeds github.com/FerretDB/FerretDB/ferretdb
// because `go install .../cmd/ferretdb@v1.24.2` panics at start-up (missing version file).
//
// Flags (or env FERRETDB_LISTEN_ADDR / FERRETDB_SQLITE_DIR / FERRETDB_LOG_LEVEL):
//
//	-listen-addr 127.0.0.1:27017
//	-sqlite-dir  /path/to/dir   (created if missing; one SQLite file per database)
//	-log-level   debug|info|warn|error (default info)
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func main() {
	listen := flag.String("listen-addr", envOr("FERRETDB_LISTEN_ADDR", "127.0.0.1:27017"), "TCP listen address")
	dir := flag.String("sqlite-dir", envOr("FERRETDB_SQLITE_DIR", "./data"), "directory for SQLite databases (created if missing)")
	level := flag.String("log-level", envOr("FERRETDB_LOG_LEVEL", "info"), "log level: debug, info, warn, error")
	flag.Parse()

	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(*level)); err != nil {
		log.Fatalf("bad -log-level: %v", err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lvl}))

	abs, err := filepath.Abs(*dir)
	if err != nil {
		log.Fatal(err)
	}
	if err = os.MkdirAll(abs, 0o755); err != nil {
		log.Fatal(err)
	}

	// FerretDB wants a file: URI naming an existing directory, ending with '/'.
	// _txlock=immediate: a write transaction takes the write lock when it begins, so concurrent
	// writers wait for each other (busy_timeout) instead of failing with SQLITE_BUSY when a
	// deferred transaction tries to upgrade its read lock.
	sqliteURL := (&url.URL{Scheme: "file", Path: abs + "/", RawQuery: "_txlock=immediate"}).String()

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: *listen},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: sqliteURL,
	})
	if err != nil {
		log.Fatal(err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	fmt.Fprintf(os.Stderr, "ferretdb-local: listening on %s, sqlite dir %s\n", *listen, abs)
	// Run blocks until ctx is cancelled; it returns nil on a clean shutdown.
	if err = f.Run(ctx); err != nil {
		log.Fatal(err)
	}
	fmt.Fprintln(os.Stderr, "ferretdb-local: stopped")
}
