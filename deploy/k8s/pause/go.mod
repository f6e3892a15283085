module hookrail.local/deploy/k8s/pause

go 1.23.0
