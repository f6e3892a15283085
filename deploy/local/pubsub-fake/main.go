// Command pubsub-fake runs the Google Cloud Pub/Sub fake server from
// cloud.google.com/go/pubsub/pstest (publish, pull, streaming pull over gRPC)
// on a fixed port until SIGINT/SIGTERM. Point clients at it with
// PUBSUB_EMULATOR_HOST=127.0.0.1:8085 and an explicit projectId.
package main

import (
	"flag"
	"log"
	"os"
	"os/signal"
	"syscall"

	"cloud.google.com/go/pubsub/pstest"
)

func main() {
	port := flag.Int("port", 8085, "TCP port (pstest listens on localhost)")
	flag.Parse()

	srv := pstest.NewServerWithPort(*port)
	log.Printf("pubsub-fake: listening on %s", srv.Addr)

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
	if err := srv.Close(); err != nil {
		log.Printf("pubsub-fake: close: %v", err)
	}
	log.Print("pubsub-fake: stopped")
}
