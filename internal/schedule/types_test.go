package schedule

import "testing"

func TestReadRelType(t *testing.T) {
	cases := map[string]RelType{
		"FS": FS, " ss ": SS, "finish to finish": FF, "Start-to-Finish": SF, "finish-to-start": FS,
		"": "", "SF+1": "", "start": "", "any": "",
	}
	for in, want := range cases {
		if got := ReadRelType(in); got != want {
			t.Errorf("ReadRelType(%q) = %q, want %q", in, got, want)
		}
	}
}
