// Package lang is the offline language layer for schedule edits: a lexicon
// of the words planners use, a tokenizer that keeps every word's place in
// the request, typo correction against the lexicon and the schedule's own
// names, a parser that turns a request into commands with slots (targets,
// ends, type, lag, duration, placement), and entity resolution that maps
// the words of a slot to activities or says why it cannot.
//
// It is pure: no I/O, no randomness, the same request always gives the
// same commands. Extending it is mostly adding words to the tables in this
// file; the shapes of sentences live in grammar.go.
package lang

import (
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/lang/lexicon"
)

// verbs maps a written verb (one word, lower case) to its canonical verb.
// Multi-word verbs are in phrases.
var verbs = map[string]string{
	// Removal of activities (or, with a link noun, of relationships).
	"delete": "delete", "remove": "delete", "scrap": "delete", "bin": "delete", "drop": "delete",
	"kill": "delete", "cancel": "delete", "eliminate": "delete", "erase": "delete", "axe": "delete",
	"ditch": "delete", "omit": "delete", "nuke": "delete", "purge": "delete", "strike": "delete",
	"deleted": "delete", "removed": "delete", "scrapped": "delete", "dump": "delete", "lose": "delete",
	"cut": "delete", "zap": "delete", "del": "delete", "rm": "delete",
	// Dissolve: remove and keep the logic through it.
	"dissolve": "dissolve", "collapse": "dissolve", "bypass": "dissolve",
	// Additions.
	"add": "add", "insert": "add", "create": "add", "include": "add", "introduce": "add", "append": "add",
	"new": "add",
	// Relationships.
	"link": "link", "connect": "link", "tie": "link", "join": "link", "chain": "link", "relate": "link",
	"unlink": "unlink", "disconnect": "unlink", "untie": "unlink", "detach": "unlink", "decouple": "unlink",
	// Changes to an activity or a link.
	"change": "change", "set": "change", "update": "change", "modify": "change", "adjust": "change",
	"alter": "change", "edit": "change", "amend": "change", "revise": "change",
	"extend": "extend", "lengthen": "extend", "increase": "extend", "prolong": "extend",
	"shorten": "shorten", "reduce": "shorten", "decrease": "shorten", "trim": "shorten",
	"rename": "rename", "retitle": "rename",
	"copy": "copy", "duplicate": "copy", "clone": "copy", "replicate": "copy", "repeat": "copy",
	"make": "make", "move": "move", "resequence": "move", "reorder": "move", "put": "put",
}

// phrases are multi-word expressions replaced by one canonical token before
// parsing ("get rid of" reads as "delete"). Longer phrases come first.
var phrases = []struct {
	words []string
	canon string
}{
	{[]string{"get", "rid", "of"}, "delete"},
	{[]string{"do", "away", "with"}, "delete"},
	{[]string{"take", "away"}, "delete"},
	{[]string{"throw", "out"}, "delete"},
	{[]string{"throw", "away"}, "delete"},
	{[]string{"rip", "out"}, "delete"},
	{[]string{"knock", "out"}, "delete"},
	{[]string{"cross", "off"}, "delete"},
	{[]string{"strip", "out"}, "delete"},
	{[]string{"wipe", "out"}, "delete"},
	{[]string{"kill", "off"}, "delete"},
	{[]string{"scrap", "off"}, "delete"},
	{[]string{"clear", "out"}, "delete"},
	{[]string{"cut", "out"}, "delete"},
	{[]string{"put", "in"}, "add"},
	{[]string{"we", "need", "to"}, ""},
	{[]string{"we", "need"}, "add"},
	{[]string{"there", "should", "be"}, "add"},
	{[]string{"there", "needs", "to", "be"}, "add"},
	{[]string{"there", "must", "be"}, "add"},
	{[]string{"allow", "for"}, "add"},
	{[]string{"hook", "up"}, "link"},
	{[]string{"re", "sequence"}, "move"},
	{[]string{"re", "order"}, "move"},
	{[]string{"finish", "to", "start"}, "fs"},
	{[]string{"start", "to", "start"}, "ss"},
	{[]string{"finish", "to", "finish"}, "ff"},
	{[]string{"start", "to", "finish"}, "sf"},
	{[]string{"rather", "than"}, "instead"},
	{[]string{"instead", "of"}, "instead"},
	{[]string{"in", "place", "of"}, "instead"},
	{[]string{"as", "opposed", "to"}, "instead"},
	{[]string{"no", "longer"}, "nolonger"},
	{[]string{"not", "any", "more"}, "nolonger"},
	{[]string{"can", "not"}, "cannot"},
	{[]string{"must", "not"}, "cannot"},
	{[]string{"may", "not"}, "cannot"},
	{[]string{"should", "not"}, "cannot"},
	{[]string{"does", "not"}, "cannot"},
	{[]string{"do", "not"}, "cannot"},
	{[]string{"will", "not"}, "cannot"},
	{[]string{"come", "after"}, "follow"},
	{[]string{"comes", "after"}, "follow"},
	{[]string{"go", "after"}, "follow"},
	{[]string{"goes", "after"}, "follow"},
	{[]string{"happen", "after"}, "follow"},
	{[]string{"be", "after"}, "follow"},
	{[]string{"wait", "for"}, "follow"},
	{[]string{"waits", "for"}, "follow"},
	{[]string{"wait", "on"}, "follow"},
	{[]string{"waiting", "for"}, "follow"},
	{[]string{"waiting", "on"}, "follow"},
	{[]string{"depend", "on"}, "follow"},
	{[]string{"depends", "on"}, "follow"},
	{[]string{"rely", "on"}, "follow"},
	{[]string{"relies", "on"}, "follow"},
	{[]string{"be", "dependent", "on"}, "follow"},
	{[]string{"dependent", "on"}, "follow"},
	{[]string{"come", "before"}, "precede"},
	{[]string{"comes", "before"}, "precede"},
	{[]string{"go", "before"}, "precede"},
	{[]string{"goes", "before"}, "precede"},
	{[]string{"be", "before"}, "precede"},
	{[]string{"happen", "before"}, "precede"},
	{[]string{"ahead", "of"}, "before"},
	{[]string{"prior", "to"}, "before"},
	{[]string{"in", "front", "of"}, "before"},
	{[]string{"at", "the", "same", "time", "as"}, "together"},
	{[]string{"at", "the", "same", "time"}, "together"},
	{[]string{"together", "with"}, "together"},
	{[]string{"alongside"}, "together"},
	{[]string{"as", "soon", "as"}, "once"},
	{[]string{"a", "couple", "of"}, "2"},
	{[]string{"couple", "of"}, "2"},
	{[]string{"a", "day", "and", "a", "half"}, "1.5 days"},
	{[]string{"half", "a", "day"}, "0.5 days"},
	{[]string{"half", "day"}, "0.5 days"},
	{[]string{"a", "half", "day"}, "0.5 days"},
	{[]string{"half", "a", "week"}, "2.5 days"},
	{[]string{"one", "and", "a", "half"}, "1.5"},
	{[]string{"two", "and", "a", "half"}, "2.5"},
	{[]string{"and", "a", "half"}, "+0.5"},
	{[]string{"has", "finished"}, "finishes"},
	{[]string{"is", "finished"}, "finishes"},
	{[]string{"is", "complete"}, "finishes"},
	{[]string{"is", "completed"}, "finishes"},
	{[]string{"has", "completed"}, "finishes"},
	{[]string{"is", "done"}, "finishes"},
	{[]string{"is", "over"}, "finishes"},
	{[]string{"has", "ended"}, "finishes"},
	{[]string{"has", "started"}, "starts"},
	{[]string{"is", "started"}, "starts"},
	{[]string{"is", "underway"}, "starts"},
	{[]string{"is", "under", "way"}, "starts"},
	{[]string{"any", "more"}, "anymore"},
	{[]string{"til"}, "till"},
	{[]string{"datadate"}, "data date"},
	{[]string{"statusdate"}, "status date"},
	{[]string{"a", "fortnight"}, "2 weeks"},
	{[]string{"fortnight"}, "2 weeks"},
	{[]string{"untill"}, "until"},
}

// finishVerbs and startVerbs are the inflections read as "finishes" and
// "starts" in relationship phrasings.
var (
	finishWords = map[string]string{"finish": "finishes", "finishes": "finishes", "finished": "finishes", "completes": "finishes",
		"complete": "finishes", "completed": "finishes", "ends": "finishes", "end": "finishes", "ended": "finishes", "done": "finishes"}
	startWords = map[string]string{"start": "starts", "starts": "starts", "started": "starts", "begins": "starts", "begin": "starts",
		"commences": "starts", "commence": "starts", "began": "starts"}
)

// politePrefixes are stripped from the start of a command ("could you
// please delete X").
var politePrefixes = [][]string{
	{"please"}, {"pls"}, {"plz"}, {"kindly"}, {"ok"}, {"okay"}, {"so"}, {"now"}, {"and"}, {"also"}, {"then"}, {"just"}, {"hi"}, {"hey"},
	{"can", "you"}, {"could", "you"}, {"would", "you"}, {"will", "you"}, {"can", "we"}, {"could", "we"},
	{"i", "want", "you", "to"}, {"i", "want", "to"}, {"i", "would", "like", "to"}, {"id", "like", "to"}, {"i", "need", "you", "to"},
	{"i", "need", "to"}, {"we", "have", "to"}, {"we", "must"}, {"we", "should"}, {"lets"}, {"let", "us"}, {"go", "ahead", "and"},
	{"we", "want", "to"}, {"i", "think", "we", "should"}, {"make", "sure", "to"}, {"make", "sure"}, {"ensure"}, {"you", "can"}, {"you", "should"},
	{"after", "that"}, {"afterwards"}, {"afterward"}, {"finally"}, {"next"}, {"subsequently"}, {"once", "thats", "done"}, {"once", "that", "is", "done"},
	{"when", "thats", "done"}, {"when", "that", "is", "done"},
}

// numberWords are read as numbers where a quantity is expected.
var numberWords = map[string]string{
	"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
	"eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "fifteen": "15", "twenty": "20",
	"thirty": "30", "half": "0.5", "a": "1", "an": "1", "single": "1",
}

// units maps a written time unit to days, weeks or hours.
var units = map[string]string{
	"day": "days", "days": "days", "d": "days", "wd": "days", "wds": "days", "dys": "days", "dy": "days",
	"week": "weeks", "weeks": "weeks", "wk": "weeks", "wks": "weeks", "w": "weeks",
	"hour": "hours", "hours": "hours", "hr": "hours", "hrs": "hours", "h": "hours",
	"month": "months", "months": "months",
}

// linkNouns name a relationship.
var linkNouns = map[string]bool{
	"link": true, "links": true, "relationship": true, "relationships": true, "relation": true, "relations": true,
	"dependency": true, "dependencies": true, "logic": true, "tie": true, "ties": true, "connection": true,
	"connections": true, "predecessor": true, "predecessors": true, "constraint": true, "sequence": true,
	"rel": true, "rels": true, "logic link": true,
}

// groupWords are trade and package words that name several activities on
// purpose: "the level 2 drywall" means all of its drywall activities,
// where "the pour on level 2" is one pour the planner has to name.
var groupWords = map[string]bool{
	"drywall": true, "fit_out": true, "finish": true, "service": true, "envelope": true, "structure": true,
	"external_works": true, "foundation": true, "mechanical": true, "electrical": true, "plumbing": true,
	"setup": true, "everything": true,
}

// quantifiers mark a reference to a group ("all", "every", "both").
var quantifiers = map[string]bool{"all": true, "every": true, "each": true, "both": true, "everything": true,
	"whole": true, "entire": true, "any": true}

// determiners and heads that carry nothing in a reference.
var refFillers = map[string]bool{
	"the": true, "a": true, "an": true, "activity": true, "activities": true, "task": true, "tasks": true, "item": true,
	"items": true, "of": true, "existing": true, "current": true, "this": true, "that": true, "these": true, "those": true,
	"its": true, "their": true, "our": true, "my": true, "called": true, "named": true, "works": true, "scope": true,
	"job": true, "jobs": true, "one": true, "ones": true, "entry": true, "line": true, "bar": true,
	"milestone": true, "id": true, "uid": true, "number": true, "no": true,
	"new": true, "newly": true, "added": true, "created": true, "inserted": true,
}

// commonWords are English words typo correction leaves alone (a word
// outside every vocabulary is corrected only when exactly one known word is
// close to it; these are known).
var commonWords = words(`a about above across after again against all almost also although always am among an and another any anymore
anything anyway are around as ask at away back be because been before being below between both but by can cannot
cant could couldnt currently did didnt do does doesnt doing done dont down during each either else enough even ever every
everything except few first for from further get gets getting give go goes going gone good got had has hasnt have havent
having he her here him his how however i id if im in instead into is isnt it its itself just keep keeping kept last
later least less let lets like long longer made make makes many may maybe me meant mean means might more most much must
my need needed needs neither never next no none nor not nothing now of off ok okay on once one only or other others
our out over own part per perhaps place please put rather really right same see seem set shall she should shouldnt
since so some something soon still such sure take taken takes taking than that thats the their them then there these they
thing things think this those though through thus till to together too twice under until up upon us use used using very
via want wanted wants was wasnt way we well were what whatever when where whether which while who whole whom whose why
will with within without wont would wouldnt yes yet you your also already whilst wait waits waiting follow follows
followed following precede precedes preceded preceding start starts started starting begin begins finish finishes finished
finishing complete completes completed end ends ended like identical similar same copied copying matching mirroring based day days week weeks hour hours month months working work workday
mark marked record log status data cent remain remains actual actuals hold held defer deferred push pushed slip slipping running snet fnlt snlt fnet mso mfo constraint constraints percent remaining left late behind slipped postpone postponed
january february march april june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec
monday tuesday wednesday thursday friday saturday sunday today yesterday tomorrow
lag lead delay gap overlap link links linked linking relationship relationships dependency dependencies logic tie ties
connection connections predecessor predecessors successor successors activity activities task tasks item items milestone
milestones duration length name called named new old roof site
delete remove dissolve add insert create include link unlink change update modify adjust extend shorten reduce increase
decrease rename move resequence reorder scrap bin drop kill cancel eliminate erase axe ditch omit cut lose connect join
chain disconnect detach keep retain preserve maintain bridge together same time earlier later critical path float slack
why what when how which who question undo revert rollback roll crash compress fast track accelerate speed resource resources
levelling leveling calendar holiday holidays weekend weekends saturday saturdays sunday sundays overtime shift deadline
constraint date dates january february march april june july august september october november december monday tuesday
wednesday thursday friday ss fs ff sf instead rather called named second third fourth fifth sixth seventh eighth ninth
tenth first both neither either half couple single double all every each none nobody any between among into onto
around near beside next prior ahead front behind day-one scaffold scaffolding inspection survey curing cure period
handover snagging cleaning clean hoarding crane excavation piling pile caps drainage slab formwork reinforcement pour
column wall walls facade window windows waterproofing electrical plumbing hvac sprinkler drywall framing board taping
ceilings ceiling joinery doors frames painting tiling flooring fixtures roofing lift lifts testing commissioning
certification defect rectification demobilisation mobilisation landscaping paving permanent temporary power water
fire alarm bms final substantial completion fitout fitouts fit outs mep services service finishes trades trade
structure structural envelope external internal works package packages lead leads lags overlap wait buffer
plasterboard sheetrock gyprock partition partitions ductwork duct ducting aircon ventilation electric electrician plumber
poured pouring rebar reinforcing reinforced paint painted painter tile tiled tiler cladding elevator elevators waterproof
finishing establishment mobilization demobilization commission commissioned decommission decommissioning test tested
services sprinklers fencing fence gates gate hoist scaffold scaffolds scaffolding kerbs kerb planting paving signage
`)

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// lexiconWords is every word the tables above use, so typo correction
// never corrects one of them into something else.
var lexiconWords = func() map[string]bool {
	m := map[string]bool{}
	add := func(ws ...string) {
		for _, w := range ws {
			m[w] = true
		}
	}
	for w := range verbs {
		add(w)
	}
	for _, p := range phrases {
		add(p.words...)
	}
	for _, p := range politePrefixes {
		add(p...)
	}
	for _, tbl := range []map[string]string{finishWords, startWords, numberWords} {
		for w := range tbl {
			add(w)
		}
	}
	// The units, not their abbreviations: "dyas" is as close to "dys" as
	// to "days" (the units table still reads "dys" as typed).
	for w := range units {
		if len(w) > 3 {
			add(w)
		}
	}
	// The nouns of the data date and the programme ("status the prgramme
	// to 1 April").
	add(strings.Fields(`programme program schedule project data date status constraint constraints deadline`)...)
	for _, tbl := range []map[string]bool{linkNouns, quantifiers, refFillers, compass} {
		for w := range tbl {
			add(w)
		}
	}
	// The level nouns, not their abbreviations: "levl" is as close to
	// "lvl" as to "level", and a word with two close words stays as typed.
	add(lexicon.LevelNouns...)
	add(lexicon.LevelNounPlurals...)
	return m
}()
