package main

import (
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/workflows"
	"gopkg.in/yaml.v3"
)

// The checks below pin the shape of ../docker-compose.yml and
// ../Dockerfile.worker, which no test can start here (no Docker engine).
// The file is decoded by a real YAML parser, so it is also checked to be
// valid YAML (duplicate keys included).

type composeFile struct {
	Services map[string]composeService `yaml:"services"`
	Volumes  map[string]any            `yaml:"volumes"`
}

type composeService struct {
	Image string `yaml:"image"`
	Build struct {
		Context    string `yaml:"context"`
		Dockerfile string `yaml:"dockerfile"`
	} `yaml:"build"`
	Environment map[string]string `yaml:"environment"`
	Ports       []string          `yaml:"ports"`
	Volumes     []string          `yaml:"volumes"`
	DependsOn   map[string]struct {
		Condition string `yaml:"condition"`
	} `yaml:"depends_on"`
	Entrypoint []string `yaml:"entrypoint"`
	Command    []string `yaml:"command"`
	Deploy     struct {
		Replicas int `yaml:"replicas"`
	} `yaml:"deploy"`
}

func loadCompose(t *testing.T) composeFile {
	t.Helper()
	b, err := os.ReadFile("../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var f composeFile
	if err := yaml.Unmarshal(b, &f); err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	return f
}

func service(t *testing.T, f composeFile, name string) composeService {
	t.Helper()
	s, ok := f.Services[name]
	if !ok {
		t.Fatalf("docker-compose.yml has no service %q", name)
	}
	return s
}

// temporalServices are the cluster's containers, each a role of
// Dockerfile.temporal's entrypoint.
var temporalServices = map[string][]string{
	"temporal-init":     {"init"},
	"temporal-history":  {"serve", "history"},
	"temporal-matching": {"serve", "matching"},
	"temporal-frontend": {"serve", "frontend"},
	"temporal-worker":   {"serve", "worker"},
	"temporal-setup":    {"setup"},
}

func TestComposeServices(t *testing.T) {
	f := loadCompose(t)
	want := []string{"postgresql", "temporal-ui", "neo4j", "weaviate", "worker"}
	for name := range temporalServices {
		want = append(want, name)
	}
	var got []string
	for name := range f.Services {
		got = append(got, name)
	}
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("services = %v, want %v", got, want)
	}
}

// The Temporal containers run the cluster's own image (the server main
// with TLS and the claim mapper) in the role the command names, at the
// server release scripts/cluster.sh builds.
func TestComposeTemporalServices(t *testing.T) {
	f := loadCompose(t)
	script, err := os.ReadFile("../scripts/cluster.sh")
	if err != nil {
		t.Fatal(err)
	}
	version := regexp.MustCompile(`(?m)^TEMPORAL_VERSION=v(\S+)$`).FindSubmatch(script)
	if version == nil {
		t.Fatal("scripts/cluster.sh sets no TEMPORAL_VERSION")
	}
	for name, command := range temporalServices {
		s := service(t, f, name)
		if s.Build.Dockerfile != "Dockerfile.temporal" || s.Build.Context != "." {
			t.Errorf("%s build = %+v, want context . and Dockerfile.temporal", name, s.Build)
		}
		if want := "autoscheduler-temporal:" + string(version[1]); s.Image != want {
			t.Errorf("%s image = %q, want %q", name, s.Image, want)
		}
		if !slices.Equal(s.Command, command) {
			t.Errorf("%s command = %v, want %v", name, s.Command, command)
		}
		if !slices.Contains(s.Volumes, "./.cluster/compose-tls:/tls") {
			t.Errorf("%s does not mount the TLS directory: %v", name, s.Volumes)
		}
	}
}

func TestComposeImages(t *testing.T) {
	f := loadCompose(t)
	for _, tc := range []struct {
		service string
		image   string // exact, or a prefix when prefix is set
		prefix  bool
	}{
		{"postgresql", "postgres:15", false},
		{"temporal-ui", "temporalio/ui:2.", true},
		{"neo4j", "neo4j:5.26-community", false},
		{"weaviate", "cr.weaviate.io/semitechnologies/weaviate:1.39.3", false},
	} {
		t.Run(tc.service, func(t *testing.T) {
			got := service(t, f, tc.service).Image
			if tc.prefix && !strings.HasPrefix(got, tc.image) || !tc.prefix && got != tc.image {
				t.Errorf("image = %q, want %q (prefix %v)", got, tc.image, tc.prefix)
			}
		})
	}
	for name, s := range f.Services {
		if s.Image == "" {
			continue
		}
		_, tag, ok := strings.Cut(s.Image[strings.LastIndex(s.Image, "/")+1:], ":")
		if !ok || tag == "" || tag == "latest" {
			t.Errorf("%s: image %q is not pinned to a tag", name, s.Image)
		}
	}
}

var portRE = regexp.MustCompile(`^127\.0\.0\.1:(\d+):(\d+)$`)

func TestComposePortsOnLoopback(t *testing.T) {
	f := loadCompose(t)
	got := map[string][]string{} // service -> "host:container"
	for name, s := range f.Services {
		for _, p := range s.Ports {
			m := portRE.FindStringSubmatch(p)
			if m == nil {
				t.Errorf("%s: port %q is not published as 127.0.0.1:HOST:CONTAINER", name, p)
				continue
			}
			got[name] = append(got[name], m[1]+":"+m[2])
		}
	}
	want := map[string][]string{
		"temporal-frontend": {"7233:7233"},
		"temporal-ui":       {"8233:8080"},
		"neo4j":             {"7474:7474", "7687:7687"},
		"weaviate":          {"50051:50051", "8080:8080"},
	}
	for name := range got {
		sort.Strings(got[name])
		if _, ok := want[name]; !ok {
			t.Errorf("%s publishes %v; no port expected", name, got[name])
		}
	}
	for name, ports := range want {
		if !slices.Equal(got[name], ports) {
			t.Errorf("%s publishes %v, want %v", name, got[name], ports)
		}
	}
}

// The workers and the UI reach the frontend over TLS with the cluster's
// client pair, verifying the frontend's certificate by its service name.
func TestComposeTLSClients(t *testing.T) {
	f := loadCompose(t)
	for _, name := range []string{"worker", "temporal-ui"} {
		env := service(t, f, name).Environment
		for key, want := range map[string]string{
			"TEMPORAL_ADDRESS":         "temporal-frontend:7233",
			"TEMPORAL_TLS_CA":          "/tls/ca.pem",
			"TEMPORAL_TLS_CERT":        "/tls/client.pem",
			"TEMPORAL_TLS_KEY":         "/tls/client-key.pem",
			"TEMPORAL_TLS_SERVER_NAME": "temporal-frontend",
		} {
			if got := env[key]; got != want {
				t.Errorf("%s env %s = %q, want %q", name, key, got, want)
			}
		}
	}
	// The server name is one the frontend's certificate holds.
	entry, err := os.ReadFile("../tools/temporal-cluster/docker/entrypoint.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(entry), "make-tls.sh\" /tls temporal-frontend") {
		t.Error("entrypoint.sh does not make the frontend's certificate for temporal-frontend")
	}
}

func TestComposeWorker(t *testing.T) {
	f := loadCompose(t)
	w := service(t, f, "worker")
	if w.Build.Dockerfile != "Dockerfile.worker" || w.Build.Context != "." {
		t.Errorf("worker build = %+v, want context . and Dockerfile.worker", w.Build)
	}
	if w.Deploy.Replicas != 4 {
		t.Errorf("worker replicas = %d, want 4 (as in the load test)", w.Deploy.Replicas)
	}
	for _, tc := range []struct{ key, want string }{
		{"NEO4J_URI", "bolt://neo4j:7687"},
		{"WEAVIATE_URL", "http://weaviate:8080"},
		{"WEAVIATE_GRPC", "weaviate:50051"},
		{"OPENAI_API_KEY", "${OPENAI_API_KEY:-}"},
	} {
		if got, ok := w.Environment[tc.key]; !ok || got != tc.want {
			t.Errorf("worker env %s = %q (set %v), want %q", tc.key, got, ok, tc.want)
		}
	}
	for _, tc := range []struct{ service, condition string }{
		{"temporal-setup", "service_completed_successfully"},
		{"neo4j", ""},
		{"weaviate", ""},
	} {
		d, ok := w.DependsOn[tc.service]
		if !ok {
			t.Errorf("worker does not depend on %s", tc.service)
			continue
		}
		if tc.condition != "" && d.Condition != tc.condition {
			t.Errorf("worker depends on %s with condition %q, want %q", tc.service, d.Condition, tc.condition)
		}
	}
}

func TestComposeDependencies(t *testing.T) {
	f := loadCompose(t)
	for _, tc := range []struct{ service, on, condition string }{
		{"temporal-init", "postgresql", "service_healthy"},
		{"temporal-history", "temporal-init", "service_completed_successfully"},
		{"temporal-matching", "temporal-init", "service_completed_successfully"},
		{"temporal-frontend", "temporal-init", "service_completed_successfully"},
		{"temporal-worker", "temporal-frontend", ""},
		{"temporal-setup", "temporal-frontend", ""},
		{"temporal-ui", "temporal-setup", "service_completed_successfully"},
	} {
		d, ok := service(t, f, tc.service).DependsOn[tc.on]
		if !ok {
			t.Errorf("%s does not depend on %s", tc.service, tc.on)
		} else if tc.condition != "" && d.Condition != tc.condition {
			t.Errorf("%s depends on %s with condition %q, want %q", tc.service, tc.on, d.Condition, tc.condition)
		}
	}
	for name, s := range f.Services {
		for on := range s.DependsOn {
			if _, ok := f.Services[on]; !ok {
				t.Errorf("%s depends on unknown service %q", name, on)
			}
		}
	}
}

// Same settings as `make cluster`: both fill in every field of the one
// config template, and the setup registers every search attribute the
// workflows set.
func TestClusterConfigShared(t *testing.T) {
	tmpl, err := os.ReadFile("../tools/temporal-cluster/temporal.yaml.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	fields := regexp.MustCompile(`@[A-Z_]+@`).FindAllString(string(tmpl), -1)
	if len(fields) < 10 {
		t.Fatalf("template has %d fields: %v", len(fields), fields)
	}
	if !strings.Contains(string(tmpl), "numHistoryShards: 16") {
		t.Error("template does not set 16 history shards")
	}
	for _, file := range []string{"../scripts/cluster.sh", "../tools/temporal-cluster/docker/entrypoint.sh"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, field := range fields {
			if !strings.Contains(string(b), "s/"+field+"/") {
				t.Errorf("%s does not fill in %s", file, field)
			}
		}
	}
	setup, err := os.ReadFile("../tools/temporal-cluster/setup/main.go")
	if err != nil {
		t.Fatal(err)
	}
	for name := range workflows.SearchAttributes() {
		if !strings.Contains(string(setup), strconv.Quote(name)) {
			t.Errorf("the cluster setup does not register search attribute %s", name)
		}
	}
}

func TestComposeVolumesDeclared(t *testing.T) {
	f := loadCompose(t)
	for _, tc := range []struct{ service, volume string }{
		{"postgresql", "postgresql-data"},
		{"neo4j", "neo4j-data"},
		{"weaviate", "weaviate-data"},
	} {
		found := false
		for _, v := range service(t, f, tc.service).Volumes {
			found = found || strings.HasPrefix(v, tc.volume+":")
		}
		if !found {
			t.Errorf("%s does not mount volume %s", tc.service, tc.volume)
		}
	}
	for name, s := range f.Services {
		for _, v := range s.Volumes {
			src, _, _ := strings.Cut(v, ":")
			if strings.HasPrefix(src, "./.cluster/") {
				continue // the git-ignored TLS directory
			}
			if strings.HasPrefix(src, ".") || strings.HasPrefix(src, "/") {
				t.Errorf("%s bind-mounts %q; only ./.cluster/ may be", name, src)
				continue
			}
			if _, ok := f.Volumes[src]; !ok {
				t.Errorf("%s mounts %q, not declared under volumes:", name, src)
			}
		}
	}
}

func TestDockerfileWorker(t *testing.T) {
	b, err := os.ReadFile("../Dockerfile.worker")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string // instructions, comments dropped
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	text := strings.Join(lines, "\n")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^FROM golang:1\.26 AS build$`),
		regexp.MustCompile(`(?m)^RUN CGO_ENABLED=0 go build .*-o /worker \./worker$`),
		regexp.MustCompile(`(?m)^FROM gcr\.io/distroless/static`),
		regexp.MustCompile(`(?m)^COPY --from=build /worker /worker$`),
		regexp.MustCompile(`(?m)^ENTRYPOINT \["/worker"\]$`),
	} {
		if !want.MatchString(text) {
			t.Errorf("Dockerfile.worker has no line matching %s", want)
		}
	}
	// The final stage is distroless: nothing runs after its FROM but COPY,
	// ENTRYPOINT and the like.
	last := strings.LastIndex(text, "\nFROM ")
	if strings.Contains(text[last:], "\nRUN ") {
		t.Error("Dockerfile.worker runs commands in the distroless stage")
	}
	// Every local package the worker imports must be copied into the build.
	for _, dir := range []string{"activities", "internal", "workflows", "worker"} {
		if !strings.Contains(text, "COPY "+dir+" ./"+dir) {
			t.Errorf("Dockerfile.worker does not copy %s/", dir)
		}
	}
}
