package scope

// Task is one request of a multi-part prompt: "delete the level 4
// ceilings", "add a 2 day fire-stopping after drywall board on each
// level", "then make the roof start after the new level 4 fire-stopping".
// A round plans and applies the tasks in dependency order, each as its own
// removals and additions steps, so a task planned after the tasks it
// depends on sees what they created.
type Task struct {
	// ID is the task's number as the review shows it ("1", "2", ...).
	ID     string `json:"id"`
	Prompt string `json:"prompt"`
	// Removals and Additions are the task's prompt separated by intent.
	Removals  string `json:"removals"`
	Additions string `json:"additions"`
	// DependsOn are the IDs of earlier tasks this one needs first: it
	// refers to what they create, or the prompt sequenced it after them.
	DependsOn []string `json:"depends_on,omitempty"`
}
