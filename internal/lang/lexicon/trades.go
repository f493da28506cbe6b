package lexicon

// Phrase is a multi-word trade term and its canonical tokens.
type Phrase struct {
	Words     []string
	Canonical []string
}

// TradePhrases are multi-word trade terms, matched on lower-case words
// before stop words and stemming ("in" and "up" are stop words on their
// own): rough-in / first fix → rough_in, fit-out → fit_out, set-up →
// setup, gypsum board → drywall, air conditioning → hvac, steel fixing →
// rebar, handed over → handover, external works → external_works.
var TradePhrases = []Phrase{
	{[]string{"rough", "in"}, []string{"rough_in"}},
	{[]string{"rough", "ins"}, []string{"rough_in"}},
	{[]string{"first", "fix"}, []string{"rough_in"}},
	{[]string{"1st", "fix"}, []string{"rough_in"}},
	{[]string{"second", "fix"}, []string{"second_fix"}},
	{[]string{"2nd", "fix"}, []string{"second_fix"}},
	{[]string{"fit", "out"}, []string{"fit_out"}},
	{[]string{"fit", "outs"}, []string{"fit_out"}},
	{[]string{"set", "up"}, []string{"setup"}},
	{[]string{"gypsum", "board"}, []string{"drywall"}},
	{[]string{"gypsum", "boards"}, []string{"drywall"}},
	{[]string{"plaster", "board"}, []string{"drywall"}},
	{[]string{"plaster", "boards"}, []string{"drywall"}},
	{[]string{"air", "conditioning"}, []string{"hvac"}},
	{[]string{"air", "con"}, []string{"hvac"}},
	{[]string{"steel", "fixing"}, []string{"rebar"}},
	{[]string{"steel", "fixer"}, []string{"rebar"}},
	{[]string{"steel", "fixers"}, []string{"rebar"}},
	{[]string{"hand", "over"}, []string{"handover"}},
	{[]string{"handed", "over"}, []string{"handover"}},
	{[]string{"external", "works"}, []string{"external_works"}},
	{[]string{"external", "work"}, []string{"external_works"}},
}

// TradeSynonyms map a (stemmed) word to its canonical trade tokens.
// Canonical tokens are the words the example schedules use most, so an
// unmapped schedule word still meets a mapped query word.
var TradeSynonyms = []Group{
	{"drywall", []string{"plasterboard", "sheetrock", "gyprock", "partition"}},
	{"hvac", []string{"ductwork", "duct", "ducting", "aircon", "ventilation"}},
	// MEP names three trades; a query for it should meet each of them.
	{"mechanical electrical plumbing", []string{"mep"}},
	{"electrical", []string{"electric", "electrician"}},
	{"plumbing", []string{"plumber"}},
	{"fit_out", []string{"fitout"}},
	{"roof", []string{"roofing", "rooftop"}},
	{"concrete", []string{"pour", "poured", "pouring"}},
	{"rebar", []string{"reinforcement", "reinforcing", "reinforced"}},
	// Trades named by the work or by the worker.
	{"paint", []string{"painting", "painted", "painter"}},
	{"tile", []string{"tiling", "tiled", "tiler"}},
	{"pile", []string{"piling"}},
	{"facade", []string{"cladding"}},
	{"lift", []string{"elevator"}},
	{"waterproofing", []string{"waterproof"}},
	{"structure", []string{"structural"}},
	{"finish", []string{"finishing"}},
	// Set-up, commissioning, handover.
	{"setup", []string{"establishment"}},
	{"mobilisation", []string{"mobilization"}},
	{"demobilisation", []string{"demobilization"}},
	{"commission", []string{"commissioning", "commissioned"}},
	{"decommission", []string{"decommissioning"}},
	{"test", []string{"testing", "tested"}},
}

// Umbrellas tag a canonical trade token with the umbrella terms planners
// use for a group of trades: "fit-out" or "finishes" for painting,
// "services" (MEP) for sprinklers, "envelope" for windows, so the query
// "second floor fit-out" meets "Painting Level 2".
var Umbrellas = []Group{
	// Building services (MEP). The example schedules close sprinkler
	// pipework up under the MEP rough-in inspection, so fire protection
	// counts as a service.
	{"service", []string{"electrical", "plumbing", "mechanical", "hvac", "sprinkler"}},
	{"fit_out", []string{"drywall", "ceiling", "joinery", "door", "fixture", "paint", "tile", "flooring"}},
	{"finish", []string{"paint", "tile", "flooring"}},
	{"envelope", []string{"facade", "window", "glazing", "waterproofing", "curtain"}},
	{"foundation", []string{"pile", "footing"}},
	{"structure", []string{"formwork", "rebar", "concrete"}},
	// Site establishment: the temporary facilities go up at set-up.
	{"setup", []string{"mobilisation", "hoarding", "welfare", "temporary"}},
	// External works: a package of its own in most schedules.
	{"external_works", []string{"paving", "landscaping", "planting", "kerb", "fencing"}},
}
