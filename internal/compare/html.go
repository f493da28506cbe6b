package compare

import (
	"bufio"
	"html/template"
	"io"
	"strings"
)

// WriteHTML writes the report as one self-contained page (no scripts,
// styles or fonts fetched): the finish and why it moved, the driving path,
// then tables of what changed, critical path changes and float erosion.
// Every name goes through html/template, so nothing in a schedule can
// become markup. Lists are capped as WriteText caps them.
func WriteHTML(w io.Writer, rep *Report, opts TextOptions) error {
	shown := func(n int) int {
		if opts.Limit > 0 && n > opts.Limit {
			return opts.Limit
		}
		return n
	}
	data := map[string]any{
		"R": rep, "Before": sideLabel(rep.Before, "A"), "After": sideLabel(rep.After, "B"),
		"BeforeSummary": sideSummary(rep.Before), "AfterSummary": sideSummary(rep.After),
		"Limit": opts.Limit,
	}
	funcs := template.FuncMap{
		"more":   func(n int) int { return n - shown(n) },
		"head":   shown,
		"deref":  func(p *float64) float64 { return *p },
		"fields": fieldChanges,
		"signed": signedDays,
		"days":   days2,
		"date":   shortDate,
		"dash":   orDash,
		"words":  func(s string) string { return strings.ReplaceAll(s, "_", " ") },
		"name":   nameOr,
	}
	t, err := template.New("compare").Funcs(funcs).Parse(pageTemplate)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := t.Execute(bw, data); err != nil {
		return err
	}
	return bw.Flush()
}

// The palette is the Gantt page's (internal/render), so the two reports
// read as one product.
const pageTemplate = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Before}} → {{.After}} — comparison</title>
<style>
:root{--red:#d62728;--green-ink:#116329;--amber:#bf8700;--line:#d0d7de;--ink:#1f2328;--muted:#57606a}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:var(--ink);margin:16px 24px;max-width:1100px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:22px 0 6px;border-bottom:1px solid var(--line);padding-bottom:3px}
.muted{color:var(--muted)}.finish{font-size:15px;background:#f6f8fa;border-left:4px solid var(--amber);padding:8px 12px}
.later{color:var(--red)}.earlier{color:var(--green-ink)}
table{border-collapse:collapse;margin:4px 0}th,td{text-align:left;padding:3px 10px 3px 0;vertical-align:top;border-bottom:1px solid #eaeef2}
th{font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums}
.add{color:var(--green-ink)}.rem{color:var(--red)}ol.path li{margin:1px 0}
</style>
</head>
<body>
<h1>{{.Before}} → {{.After}}</h1>
<p class="muted">A: {{.BeforeSummary}}<br>B: {{.AfterSummary}}<br>Activities are matched by id.</p>
{{with .R.Finish}}
<h2>Finish</h2>
<p class="finish {{.Direction}}">{{.Text}}</p>
{{if .Causes}}<table><tr><th>Step</th><th>What changed</th><th>Finish moved</th></tr>
{{range .Causes}}<tr><td>{{.Name}}</td><td>{{.Why}}</td><td class="n">{{signed .Days}}</td></tr>
{{end}}</table>{{end}}
{{if .Path}}<p class="muted">Driving path of {{if eq .PathOf "before"}}A{{else}}B{{end}} ({{len .Path}} activities), with how far each one's finish moved:</p>
<ol class="path">{{range .Path}}<li>{{name .Name .ID}} <span class="muted">({{.ID}})</span> {{if .Moved}}{{signed (deref .Moved)}}{{else}}<em>in one version only</em>{{end}}</li>
{{end}}</ol>{{end}}
{{else}}{{with .R.CPMError}}<h2>Finish</h2><p class="finish">Not compared: {{.}}</p>{{end}}{{end}}
{{if or .R.Project .R.Calendars}}<h2>Project and calendars</h2><table>
{{range .R.Project}}<tr><td>{{words .Field}}</td><td>{{dash .Before}} → {{dash .After}}</td></tr>
{{end}}{{range .R.Calendars}}<tr><td>calendar {{.Name}} ({{.Change}})</td><td>{{range $i, $d := .Details}}{{if $i}}; {{end}}{{$d}}{{end}}</td></tr>
{{end}}</table>{{end}}
<h2>Activities: {{len .R.ActivitiesAdded}} added, {{len .R.ActivitiesRemoved}} removed, {{len .R.ActivitiesChanged}} changed</h2>
<table>
{{range slice .R.ActivitiesAdded 0 (head (len .R.ActivitiesAdded))}}<tr class="add"><td>+</td><td>{{.ID}}</td><td>{{.Name}}</td><td>{{.Duration}} d</td></tr>
{{end}}{{with more (len .R.ActivitiesAdded)}}<tr><td></td><td colspan="3" class="muted">… and {{.}} more added</td></tr>{{end}}
{{range slice .R.ActivitiesRemoved 0 (head (len .R.ActivitiesRemoved))}}<tr class="rem"><td>−</td><td>{{.ID}}</td><td>{{.Name}}</td><td>{{.Duration}} d</td></tr>
{{end}}{{with more (len .R.ActivitiesRemoved)}}<tr><td></td><td colspan="3" class="muted">… and {{.}} more removed</td></tr>{{end}}
{{range slice .R.ActivitiesChanged 0 (head (len .R.ActivitiesChanged))}}<tr><td>~</td><td>{{.ID}}</td><td>{{.Name}}</td><td>{{fields .Changes}}</td></tr>
{{end}}{{with more (len .R.ActivitiesChanged)}}<tr><td></td><td colspan="3" class="muted">… and {{.}} more changed</td></tr>{{end}}
</table>
<h2>Relationships: {{len .R.RelationshipsAdded}} added, {{len .R.RelationshipsRemoved}} removed, {{len .R.RelationshipsChanged}} changed</h2>
<table>
{{range slice .R.RelationshipsAdded 0 (head (len .R.RelationshipsAdded))}}<tr class="add"><td>+</td><td>{{.Text}}</td></tr>
{{end}}{{with more (len .R.RelationshipsAdded)}}<tr><td></td><td class="muted">… and {{.}} more added</td></tr>{{end}}
{{range slice .R.RelationshipsRemoved 0 (head (len .R.RelationshipsRemoved))}}<tr class="rem"><td>−</td><td>{{.Text}}</td></tr>
{{end}}{{with more (len .R.RelationshipsRemoved)}}<tr><td></td><td class="muted">… and {{.}} more removed</td></tr>{{end}}
{{range slice .R.RelationshipsChanged 0 (head (len .R.RelationshipsChanged))}}<tr><td>~</td><td>{{.Text}}</td></tr>
{{end}}{{with more (len .R.RelationshipsChanged)}}<tr><td></td><td class="muted">… and {{.}} more changed</td></tr>{{end}}
</table>
{{if .R.Finish}}
<h2>Critical path: {{len .R.BecameCritical}} became critical, {{len .R.NoLongerCritical}} no longer critical</h2>
<table>
{{range slice .R.BecameCritical 0 (head (len .R.BecameCritical))}}<tr class="rem"><td>now critical</td><td>{{.ID}}</td><td>{{.Name}}</td></tr>
{{end}}{{with more (len .R.BecameCritical)}}<tr><td></td><td colspan="2" class="muted">… and {{.}} more</td></tr>{{end}}
{{range slice .R.NoLongerCritical 0 (head (len .R.NoLongerCritical))}}<tr class="add"><td>no longer critical</td><td>{{.ID}}</td><td>{{.Name}}</td></tr>
{{end}}{{with more (len .R.NoLongerCritical)}}<tr><td></td><td colspan="2" class="muted">… and {{.}} more</td></tr>{{end}}
</table>
<h2>Float erosion: {{len .R.FloatErosion}} activities lost total float</h2>
{{if .R.FloatErosion}}<table><tr><th>ID</th><th>Activity</th><th>Float before</th><th>after</th><th>drop (d)</th></tr>
{{range slice .R.FloatErosion 0 (head (len .R.FloatErosion))}}<tr><td>{{.ID}}</td><td>{{.Name}}</td><td class="n">{{days .Before}}</td><td class="n">{{days .After}}</td><td class="n">{{days .Drop}}</td></tr>
{{end}}{{with more (len .R.FloatErosion)}}<tr><td></td><td colspan="4" class="muted">… and {{.}} more</td></tr>{{end}}
</table>{{end}}
{{end}}
</body>
</html>
`
