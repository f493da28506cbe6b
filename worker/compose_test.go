package main

import (
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

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

func TestComposeServices(t *testing.T) {
	f := loadCompose(t)
	want := []string{"postgresql", "temporal", "temporal-setup", "temporal-ui", "neo4j", "weaviate", "worker"}
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

func TestComposeImages(t *testing.T) {
	f := loadCompose(t)
	for _, tc := range []struct {
		service string
		image   string // exact, or a prefix when prefix is set
		prefix  bool
	}{
		{"postgresql", "postgres:16", false},
		{"temporal", "temporalio/auto-setup:1.", true},
		{"temporal-setup", "temporalio/admin-tools:1.", true},
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
	// The Temporal images move together: admin-tools tags are the server
	// version plus a suffix.
	server := strings.TrimPrefix(service(t, f, "temporal").Image, "temporalio/auto-setup:")
	tools := strings.TrimPrefix(service(t, f, "temporal-setup").Image, "temporalio/admin-tools:")
	if tools != server && !strings.HasPrefix(tools, server+"-") {
		t.Errorf("admin-tools %q does not match server %q", tools, server)
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
		"temporal":    {"7233:7233"},
		"temporal-ui": {"8233:8080"},
		"neo4j":       {"7474:7474", "7687:7687"},
		"weaviate":    {"50051:50051", "8080:8080"},
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

func TestComposeWorker(t *testing.T) {
	f := loadCompose(t)
	w := service(t, f, "worker")
	if w.Build.Dockerfile != "Dockerfile.worker" || w.Build.Context != "." {
		t.Errorf("worker build = %+v, want context . and Dockerfile.worker", w.Build)
	}
	for _, tc := range []struct{ key, want string }{
		{"TEMPORAL_ADDRESS", "temporal:7233"},
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
	for _, tc := range []struct{ service, on string }{
		{"temporal", "postgresql"},
		{"temporal-setup", "temporal"},
		{"temporal-ui", "temporal"},
	} {
		if _, ok := service(t, f, tc.service).DependsOn[tc.on]; !ok {
			t.Errorf("%s does not depend on %s", tc.service, tc.on)
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

func TestComposeTemporalConfig(t *testing.T) {
	f := loadCompose(t)
	tmp := service(t, f, "temporal")
	for key, want := range map[string]string{
		"DB":             "postgres12",
		"DB_PORT":        "5432",
		"POSTGRES_USER":  "temporal",
		"POSTGRES_PWD":   "temporal",
		"POSTGRES_SEEDS": "postgresql",
	} {
		if got := tmp.Environment[key]; got != want {
			t.Errorf("temporal env %s = %q, want %q", key, got, want)
		}
	}
	pg := service(t, f, "postgresql").Environment
	if pg["POSTGRES_USER"] != tmp.Environment["POSTGRES_USER"] || pg["POSTGRES_PASSWORD"] != tmp.Environment["POSTGRES_PWD"] {
		t.Errorf("postgresql credentials %v do not match temporal's", pg)
	}
	if got := service(t, f, "temporal-ui").Environment["TEMPORAL_ADDRESS"]; got != "temporal:7233" {
		t.Errorf("temporal-ui TEMPORAL_ADDRESS = %q, want temporal:7233", got)
	}
}

func TestComposeSearchAttributes(t *testing.T) {
	f := loadCompose(t)
	s := service(t, f, "temporal-setup")
	script := strings.Join(append(slices.Clone(s.Entrypoint), s.Command...), " ")
	script = strings.Join(strings.Fields(script), " ")
	for _, want := range []string{
		"temporal operator search-attribute create",
		"--name ScheduleID --type Keyword",
		"--name DispatchStage --type Keyword",
		"--address temporal:7233",
	} {
		if !strings.Contains(script, want) {
			t.Errorf("temporal-setup does not run %q; script:\n%s", want, script)
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
			if strings.HasPrefix(src, ".") || strings.HasPrefix(src, "/") {
				continue // bind mount
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
