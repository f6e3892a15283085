{{- define "hookrail.fullname" -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}

{{- define "hookrail.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Selector of one service's pods; call with (dict "root" $ "name" $name). */}}
{{- define "hookrail.selectorLabels" -}}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "hookrail.secretName" -}}
{{- if .Values.secrets.existingSecret -}}{{ .Values.secrets.existingSecret }}{{- else -}}{{ include "hookrail.fullname" . }}{{- end -}}
{{- end -}}

{{- define "hookrail.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}{{ .Values.serviceAccount.name | default (include "hookrail.fullname" .) }}{{- else -}}{{ .Values.serviceAccount.name | default "default" }}{{- end -}}
{{- end -}}

{{- define "hookrail.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{/*
Environment shared by every service and the set-up Job. Everything comes from values or from
Secrets that exist before the release (the set-up Job runs before the chart's own objects exist),
except the admin and encryption keys, which only the services read.
*/}}
{{- define "hookrail.env" -}}
- { name: HOOKRAIL_HTTP_HOST, value: "0.0.0.0" }
- { name: HOOKRAIL_LOG_LEVEL, value: {{ .Values.config.logLevel | quote }} }
- { name: HOOKRAIL_KAFKA_BROKERS, value: {{ .Values.kafka.brokers | quote }} }
- { name: HOOKRAIL_KAFKA_TOPIC_PREFIX, value: {{ .Values.kafka.topicPrefix | quote }} }
- { name: HOOKRAIL_KAFKA_PARTITIONS, value: {{ .Values.kafka.partitions | quote }} }
- { name: HOOKRAIL_KAFKA_REPLICATION_FACTOR, value: {{ .Values.kafka.replicationFactor | quote }} }
{{- if or .Values.kafka.tls.enabled .Values.kafka.tls.caSecret }}
- { name: HOOKRAIL_KAFKA_TLS, value: "true" }
{{- end }}
{{- if .Values.kafka.tls.caSecret }}
- { name: HOOKRAIL_KAFKA_TLS_CA_FILE, value: "/etc/hookrail/kafka-ca/{{ .Values.kafka.tls.caKey }}" }
{{- end }}
{{- with .Values.kafka.sasl }}
{{- if .mechanism }}
- { name: HOOKRAIL_KAFKA_SASL_MECHANISM, value: {{ .mechanism | quote }} }
- name: HOOKRAIL_KAFKA_SASL_USERNAME
  valueFrom: { secretKeyRef: { name: {{ required "kafka.sasl.existingSecret is required with kafka.sasl.mechanism" .existingSecret | quote }}, key: {{ .usernameKey | quote }} } }
- name: HOOKRAIL_KAFKA_SASL_PASSWORD
  valueFrom: { secretKeyRef: { name: {{ .existingSecret | quote }}, key: {{ .passwordKey | quote }} } }
{{- end }}
{{- end }}
{{- if .Values.mongodb.existingSecret }}
- name: HOOKRAIL_MONGODB_URL
  valueFrom: { secretKeyRef: { name: {{ .Values.mongodb.existingSecret | quote }}, key: {{ .Values.mongodb.existingSecretKey | quote }} } }
{{- else }}
- { name: HOOKRAIL_MONGODB_URL, value: {{ .Values.mongodb.url | quote }} }
{{- end }}
- { name: HOOKRAIL_PUBLIC_URL, value: {{ .Values.config.publicUrl | quote }} }
- { name: HOOKRAIL_INGEST_PUBLIC_URL, value: {{ .Values.config.ingestPublicUrl | quote }} }
- { name: HOOKRAIL_ALLOW_PRIVATE_TARGETS, value: {{ .Values.config.allowPrivateTargets | quote }} }
- { name: HOOKRAIL_ALLOW_PRIVATE_BROKERS, value: {{ .Values.config.allowPrivateBrokers | quote }} }
- { name: HOOKRAIL_SMTP_FROM, value: {{ .Values.config.smtpFrom | quote }} }
- { name: OTEL_TRACES_EXPORTER, value: {{ .Values.config.tracesExporter | quote }} }
{{- with .Values.config.smtpUrl }}
- { name: HOOKRAIL_SMTP_URL, value: {{ . | quote }} }
{{- end }}
{{- with .Values.config.trustedProxies }}
- { name: HOOKRAIL_TRUSTED_PROXIES, value: {{ join "," . | quote }} }
{{- end }}
{{- with .Values.config.otlpEndpoint }}
- { name: OTEL_EXPORTER_OTLP_ENDPOINT, value: {{ . | quote }} }
{{- end }}
{{- range $k, $v := .Values.config.extraEnv }}
- { name: {{ $k | quote }}, value: {{ $v | quote }} }
{{- end }}
{{- end -}}

{{- define "hookrail.volumeMounts" -}}
- { name: tmp, mountPath: /tmp }
{{- if .Values.kafka.tls.caSecret }}
- { name: kafka-ca, mountPath: /etc/hookrail/kafka-ca, readOnly: true }
{{- end }}
{{- end -}}

{{- define "hookrail.volumes" -}}
- { name: tmp, emptyDir: { sizeLimit: 64Mi } }
{{- if .Values.kafka.tls.caSecret }}
- name: kafka-ca
  secret: { secretName: {{ .Values.kafka.tls.caSecret | quote }}, items: [{ key: {{ .Values.kafka.tls.caKey | quote }}, path: {{ .Values.kafka.tls.caKey | quote }} }] }
{{- end }}
{{- end -}}

{{- /* The named change stream connections: the list, then each string from its Secret. */ -}}
{{- define "hookrail.changeStreamEnv" -}}
{{- $declared := list }}
{{- range .Values.changeStreams.connections }}
{{- $declared = append $declared (dict "name" .name "projects" .projects) }}
{{- end }}
- { name: HOOKRAIL_CHANGE_STREAM_CONNECTIONS, value: {{ toJson $declared | quote }} }
{{- range .Values.changeStreams.connections }}
- name: HOOKRAIL_CHANGE_STREAM_CONNECTION_{{ .name | upper | replace "-" "_" }}
  valueFrom: { secretKeyRef: { name: {{ required "changeStreams.connections[].secretName is required" .secretName | quote }}, key: {{ .secretKey | default "connection-string" | quote }} } }
{{- end }}
{{- end -}}
