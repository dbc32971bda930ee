package orders

import (
	"fmt"
	"slices"
	"strings"
)

// Name is one thing a player may name in an order: a province (with its
// abbreviation, full name and aliases), a power, or any other game's place
// or thing. The game builds these from its map or scenario file; the parser
// knows nothing else about the game.
type Name struct {
	ID      string   // canonical id, lower case ("stp", "gop", "england")
	Full    string   // full name as printed ("St Petersburg", "Gulf of Pelusium")
	Abbrev  string   // map abbreviation as printed ("StP", "GoP"); "" means ID
	Aliases []string // other accepted spellings ("st. petersburg", "Carthago")
	Coasts  []string // coast ids of a multi-coast province ("nc", "sc")
}

// Names is a prepared index over a list of names (provinces, powers, or any
// other game's places and things): every spelling is normalised once so a
// parse looks names up in maps instead of rescanning the list. Build it once
// with NewNames and share it; it is read-only afterwards and safe for
// concurrent use.
type Names struct {
	noun     string // "province", "power", … (for messages)
	list     []Name
	byID     map[string]int
	first    map[string][]*form // first word ⇒ forms starting with it, longest first
	forms    []*form            // forms the prefix and typo matchers compare against
	words    map[string]string  // every word of every spelling (shared strings for the tokenizer)
	maxWords int
	indexing bool // NewNames is filling words (normWordIn)
}

// form is one spelling of one or more names, split into normalised words.
type form struct {
	words   []string
	hyph    []bool // hyph[i]: a hyphen may stand between words[i] and words[i+1]
	joined  string // words joined by single spaces
	entries []int  // indexes into Names.list; more than one = ambiguous lenient form
	lenient bool   // a generated short form: not accepted in strict mode
	hist    letterHist
}

// letterHist counts the letters of a string: two strings within edit
// distance d differ by at most 2d in their counts, a cheap test that spares
// most distance computations.
type letterHist [27]uint8

func histOf(s string) letterHist {
	var h letterHist
	for i := 0; i < len(s); i++ {
		c := s[i]
		k := 26
		if c >= 'a' && c <= 'z' {
			k = int(c - 'a')
		}
		if h[k] < 255 {
			h[k]++
		}
	}
	return h
}

func histFar(a, b *letterHist, max int) bool {
	d := 0
	for i := range a {
		x := int(a[i]) - int(b[i])
		if x < 0 {
			x = -x
		}
		d += x
	}
	return d > 2*max
}

// MatchKind tells how a name was recognised.
type MatchKind uint8

const (
	MatchExact   MatchKind = iota + 1 // id, abbreviation, full name or declared alias
	MatchLenient                      // generated short form ("Adriatic", "StPetersburg")
	MatchPrefix                       // a unique prefix ("Burg")
	MatchTypo                         // a unique close spelling ("Burgandy")
)

// NameMatch is a name read from a line.
type NameMatch struct {
	Index int    // position of the name in the list given to NewNames
	ID    string // its id
	Text  string // the words as written
	How   MatchKind
}

// NameError says why no single name could be read.
type NameError struct {
	Text       string // what the player wrote
	Noun       string // "province", "power", …
	Candidates []Name // two or more when the spelling is ambiguous; empty when unknown
	Next       int    // token index after the ambiguous spelling (see Scanner.Seek)
}

func (e *NameError) Error() string {
	if len(e.Candidates) == 0 {
		if e.Text == "" {
			return fmt.Sprintf("a %s is missing", e.Noun)
		}
		return fmt.Sprintf("%q is not a %s I know", e.Text, e.Noun)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%q could be ", e.Text)
	for i, n := range e.Candidates {
		if i > 0 {
			if i == len(e.Candidates)-1 {
				b.WriteString(" or ")
			} else {
				b.WriteString(", ")
			}
		}
		b.WriteString(describe(n))
	}
	return b.String()
}

// describe names a Name for a player: "Gulf of Pelusium (GoP)".
func describe(n Name) string {
	ab := abbrevOf(n)
	if n.Full == "" || strings.EqualFold(n.Full, ab) {
		return ab
	}
	return n.Full + " (" + ab + ")"
}

func abbrevOf(n Name) string {
	if n.Abbrev != "" {
		return n.Abbrev
	}
	return n.ID
}

// Short is the name as an order prints it: its abbreviation, or its id
// when it has none.
func (n Name) Short() string { return abbrevOf(n) }

// Describe names n for a player: "Gulf of Pelusium (GoP)", or only the
// short form when the full name adds nothing.
func (n Name) Describe() string { return describe(n) }

// NewNames indexes list. noun names what the list holds in messages
// ("province"). It fails when two names share an id or a spelling.
//
// A process that reads one phase's orders (`pbemd adjudicate`) builds its
// map's index once and reads a few lines with it, so building is most of
// what the index costs there: the forms are made in blocks, a spelling's
// form is found through its first word, and the words are normalised
// without the mail reader's shared words (normWordIn).
func NewNames(noun string, list []Name) (*Names, error) {
	n := &Names{
		noun:     noun,
		list:     list,
		byID:     make(map[string]int, len(list)),
		first:    make(map[string][]*form, 2*len(list)),
		words:    make(map[string]string, 4*len(list)),
		indexing: true,
	}
	var (
		sp    nameSplitter
		block []form   // the forms are allocated in blocks of formBlock
		ents  []int    // and their first entries likewise,
		ws    []string // their words
		hs    []bool   // and hyphens
	)
	add := func(i int, spelling string, lenient bool) error {
		words, hyph := sp.split(spelling, n)
		if len(words) == 0 {
			return nil
		}
		var f *form
		for _, g := range n.first[words[0]] {
			if slices.Equal(g.words, words) {
				f = g
				break
			}
		}
		if f != nil {
			if f.entries[0] == i || containsInt(f.entries, i) {
				if !lenient {
					f.lenient = false
				}
				for k := range hyph {
					f.hyph[k] = f.hyph[k] || hyph[k] // "Mid Atlantic" and "Mid-Atlantic"
				}
				return nil
			}
			switch {
			case !lenient && !f.lenient:
				return fmt.Errorf("orders: %q names both %s %q and %q", spelling, noun, list[f.entries[0]].ID, list[i].ID)
			case !lenient && f.lenient:
				// An exact spelling beats a generated one.
				f.entries = []int{i}
				f.lenient = false
			case lenient && f.lenient:
				f.entries = append(f.entries, i) // ambiguous short form
			}
			return nil
		}
		for _, w := range words {
			n.words[w] = w
		}
		// words and hyph are the splitter's: the form keeps copies.
		words, ws = carve(ws, words)
		hyph, hs = carve(hs, hyph)
		joined := strings.Join(words, " ")
		if len(block) == cap(block) {
			block, ents = make([]form, 0, formBlock), make([]int, 0, formBlock)
		}
		ents = append(ents, i)
		block = append(block, form{words: words, hyph: hyph, joined: joined, entries: ents[len(ents)-1 : len(ents) : len(ents)], lenient: lenient, hist: histOf(joined)})
		f = &block[len(block)-1]
		n.forms = append(n.forms, f)
		n.first[words[0]] = append(n.first[words[0]], f)
		if len(words) > n.maxWords {
			n.maxWords = len(words)
		}
		return nil
	}
	for i, nm := range list {
		id := strings.ToLower(strings.TrimSpace(nm.ID))
		if id == "" {
			return nil, fmt.Errorf("orders: %s #%d has no id", noun, i+1)
		}
		if _, dup := n.byID[id]; dup {
			return nil, fmt.Errorf("orders: %s id %q appears twice", noun, id)
		}
		n.byID[id] = i
	}
	for i, nm := range list {
		for _, s := range [...]string{nm.ID, nm.Abbrev, nm.Full} {
			if err := add(i, s, false); err != nil {
				return nil, err
			}
		}
		for _, s := range nm.Aliases {
			if err := add(i, s, false); err != nil {
				return nil, err
			}
		}
	}
	// Generated short forms come after every exact spelling is known, so an
	// exact spelling always wins.
	var shorts []string
	for i, nm := range list {
		for k := -1; k < len(nm.Aliases); k++ {
			s := nm.Full
			if k >= 0 {
				s = nm.Aliases[k]
			}
			shorts = shortForms(s, &sp, n, shorts[:0])
			for _, short := range shorts {
				if err := add(i, short, true); err != nil {
					return nil, err
				}
			}
		}
	}
	n.indexing = false
	for _, fs := range n.first {
		slices.SortStableFunc(fs, func(a, b *form) int { return len(b.words) - len(a.words) })
	}
	slices.SortFunc(n.forms, func(a, b *form) int { return strings.Compare(a.joined, b.joined) })
	return n, nil
}

// formBlock is how many forms NewNames allocates at a time.
const formBlock = 64

// carve returns a copy of src cut from the free end of slab (a new slab
// of at least formBlock when it has no room), and the slab after it. The
// copy's capacity is its length, so appending to it never reaches into
// the slab.
func carve[T any](slab, src []T) (dst, rest []T) {
	if cap(slab)-len(slab) < len(src) {
		slab = make([]T, 0, max(formBlock, len(src)))
	}
	k := len(slab)
	slab = append(slab, src...)
	return slab[k:len(slab):len(slab)], slab
}

// nameSplitter splits spellings into words (splitName) with buffers it
// reuses: what split returns is valid until its next call.
type nameSplitter struct {
	toks  []Token
	words []string
	hyph  []bool
}

// split is splitName into the splitter's buffers, without the joined form.
func (sp *nameSplitter) split(s string, dict *Names) (words []string, hyph []bool) {
	sp.toks, sp.words, sp.hyph = splitWords(s, sp.toks[:0], dict, sp.words[:0], sp.hyph[:0])
	return sp.words, sp.hyph
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// splitWords normalises a spelling into words, noting where hyphens
// stood (hyph[i]: one stood between words[i] and words[i+1]), appending
// to toks, words and hyph. dict, if not nil, is the index the words go to
// (see normWordIn).
func splitWords(s string, toks []Token, dict *Names, words []string, hyph []bool) ([]Token, []string, []bool) {
	toks = tokenize(s, toks, dict)
	pendingHyphen := false
	for _, t := range toks {
		if t.Kind == Punct {
			if t.Norm == "-" && len(words) > 0 {
				pendingHyphen = true
			}
			continue
		}
		if len(words) > 0 {
			hyph = append(hyph, pendingHyphen)
		}
		pendingHyphen = false
		words = append(words, t.Norm)
	}
	return toks, words, hyph
}

// genericWords may be left out of a place name when what remains is unique:
// "Adriatic" for Adriatic Sea, "Lyon" for Gulf of Lyon.
var genericWords = map[string]bool{
	"sea": true, "ocean": true, "channel": true, "strait": true, "straits": true,
	"bight": true, "gulf": true, "bay": true, "of": true, "the": true, "mare": true,
}

// reservedShort are words a generated short form may not be, because the
// grammars give them another meaning ("North" is a coast).
var reservedShort = map[string]bool{
	"north": true, "south": true, "east": true, "west": true, "coast": true,
	"northern": true, "southern": true, "eastern": true, "western": true,
	"central": true, "upper": true, "lower": true, "great": true, "little": true,
}

// shortForms generates the lenient spellings of a multi-word name: without
// its generic words ("Adriatic", "Pelusium") and run together
// ("StPetersburg", "MidAtlantic"), appended to out. dict is as for
// splitWords.
func shortForms(s string, sp *nameSplitter, dict *Names, out []string) []string {
	words, hyph := sp.split(s, dict)
	if len(words) < 2 {
		return out
	}
	lo, hi := 0, len(words)
	for lo < hi && genericWords[words[lo]] {
		lo++
	}
	for hi > lo && genericWords[words[hi-1]] {
		hi--
	}
	if hi > lo && (lo > 0 || hi < len(words)) {
		rest := words[lo:hi]
		if !(len(rest) == 1 && (reservedShort[rest[0]] || len(rest[0]) < 4)) {
			// keep the hyphens: "Mid-Atlantic"
			var b strings.Builder
			for i, w := range rest {
				if i > 0 {
					if hyph[lo+i-1] {
						b.WriteByte('-')
					} else {
						b.WriteByte(' ')
					}
				}
				b.WriteString(w)
			}
			out = append(out, b.String())
		}
		if len(rest) > 1 {
			out = append(out, strings.Join(rest, ""))
		}
	}
	out = append(out, strings.Join(words, ""))
	return out
}

// Len is the number of names.
func (n *Names) Len() int { return len(n.list) }

// Get returns the name with the given id.
func (n *Names) Get(id string) (Name, bool) {
	i, ok := n.byID[id]
	if !ok {
		return Name{}, false
	}
	return n.list[i], true
}

// Index returns the position of the name with the given id in the list
// given to NewNames.
func (n *Names) Index(id string) (int, bool) {
	i, ok := n.byID[id]
	return i, ok
}

// Noun is what the names are, for messages ("province", "power").
func (n *Names) Noun() string { return n.noun }

// Abbrev returns the abbreviation of a name by its id (the id itself for a
// name without one), false when no name has that id.
func (n *Names) Abbrev(id string) (string, bool) {
	if n == nil {
		return "", false
	}
	i, ok := n.byID[id]
	if !ok {
		return "", false
	}
	return abbrevOf(n.list[i]), true
}

// AddWords adds words (lower case, as Token.Norm spells them) to the
// shared spellings of the index, so that the tokenizer, reading with the
// index as its dictionary (a Vocabulary's Names), returns a shared copy of
// them instead of allocating one: a grammar's keywords. It does not make
// them names. Call it before sharing the index.
func (n *Names) AddWords(words ...string) {
	for _, w := range words {
		n.words[w] = w
	}
}

// At returns the i-th name of the list given to NewNames.
func (n *Names) At(i int) Name { return n.list[i] }

// Lookup reads a whole string as one name, exactly (no prefixes, no typos).
func (n *Names) Lookup(s string) (Name, bool) {
	var buf [8]Token
	toks := tokenize(s, buf[:0], n)
	f, next := n.exact(toks, 0, len(toks), true)
	if f == nil || next != len(toks) || len(f.entries) != 1 {
		return Name{}, false
	}
	return n.list[f.entries[0]], true
}

// exact reads the longest exact (or, unless strict, generated) spelling
// starting at toks[p], not reading toks[end:]. It returns the form and the
// index after it, or nil.
func (n *Names) exact(toks []Token, p, end int, strict bool) (*form, int) {
	if p >= end || toks[p].Kind != Word {
		return nil, p
	}
	for _, f := range n.first[toks[p].Norm] {
		if strict && f.lenient {
			continue
		}
		q := p + 1
		ok := true
		for w := 1; w < len(f.words); w++ {
			if q < end && toks[q].Kind == Punct && toks[q].Norm == "-" && f.hyph[w-1] {
				q++
			}
			if q >= end || toks[q].Kind != Word || toks[q].Norm != f.words[w] {
				ok = false
				break
			}
			q++
		}
		if ok {
			return f, q
		}
	}
	return nil, p
}

// fuzzy reads a name by unique prefix or unique close spelling, starting at
// toks[p]. stop tells which words end a name (grammar keywords). It returns
// the entry, how it matched and the index after it; or the candidates when
// the spelling is ambiguous.
func (n *Names) fuzzy(toks []Token, p, end int, stop func(string) bool) (entry int, how MatchKind, next int, cands []int) {
	t := toks[p]
	if t.Kind != Word || isNumber(t.Norm) {
		return -1, 0, p, nil
	}
	var idx [8]int
	run := n.wordRun(toks, p, end, stop, &idx)
	// A close spelling of a name of several words: "Norht Sea", and
	// "Western Mediteranean" although "western" alone is a keyword.
	for span := run; span >= 2; span-- {
		if e, c := n.typo(toks, idx[:span]); e >= 0 {
			return e, MatchTypo, idx[span-1] + 1, nil
		} else if len(c) > 0 {
			return -1, 0, p, c
		}
	}
	if len(t.Norm) < 3 || (stop != nil && stop(t.Norm)) {
		return -1, 0, p, nil
	}
	// A unique prefix of at least three letters: "Burg", "Bulg".
	if len(t.Norm) <= maxFuzzyBytes {
		var found []int
		for _, f := range n.forms {
			if len(f.joined) > len(t.Norm) && strings.HasPrefix(f.joined, t.Norm) {
				found = addEntries(found, f.entries)
			}
		}
		switch {
		case len(found) == 1:
			return found[0], MatchPrefix, p + 1, nil
		case len(found) > 1:
			return -1, 0, p, found
		}
	}
	// A close spelling of a one-word name: "Burgandy".
	if e, c := n.typo(toks, idx[:1]); e >= 0 {
		return e, MatchTypo, p + 1, nil
	} else if len(c) > 0 {
		return -1, 0, p, c
	}
	return -1, 0, p, nil
}

// wordRun finds the run of words a misspelt name may span from toks[p]:
// words joined by spaces or by a hyphen written without spaces
// ("Mid-Atlantc"), up to a keyword. It stores their indexes in idx.
func (n *Names) wordRun(toks []Token, p, end int, stop func(string) bool, idx *[8]int) int {
	run := 0
	for q := p; q < end && run < n.maxWords && run < len(idx); q++ {
		tq := toks[q]
		if tq.Kind == Punct {
			if tq.Norm == "-" && run > 0 && q+1 < end && tight(toks[q-1], tq, toks[q+1]) {
				continue
			}
			break
		}
		if q > p && stop != nil && stop(tq.Norm) {
			break
		}
		idx[run] = q
		run++
	}
	return run
}

// longerTypo looks for a close spelling of a name of more than minWords
// words from toks[p]: "Steel Mil" is Steel Mill even though "Steel" alone is
// a name. It returns the entry and the index after it, or -1.
func (n *Names) longerTypo(toks []Token, p, end, minWords int, stop func(string) bool) (int, int) {
	var idx [8]int
	run := n.wordRun(toks, p, end, stop, &idx)
	for span := run; span > minWords; span-- {
		if e, _ := n.typo(toks, idx[:span]); e >= 0 {
			return e, idx[span-1] + 1
		}
	}
	return -1, p
}

// tight reports a hyphen written between two words without spaces.
func tight(a, h, b Token) bool {
	return a.Pos+len(a.Text) == h.Pos && h.Pos+len(h.Text) == b.Pos
}

// typo compares the words toks[idx...] with every name of as many words. It
// returns the one entry within reach, or the candidates when several are.
func (n *Names) typo(toks []Token, idx []int) (int, []int) {
	var sb [maxFuzzyBytes + 8]byte
	s := sb[:0]
	for i, q := range idx {
		if i > 0 {
			s = append(s, ' ')
		}
		if len(s)+len(toks[q].Norm) > maxFuzzyBytes {
			return -1, nil
		}
		s = append(s, toks[q].Norm...)
	}
	if len(s) < 4 {
		return -1, nil
	}
	max := 1
	if len(s) >= 9 {
		max = 2
	}
	ss := string(s)
	h := histOf(ss)
	var found []int
	for _, f := range n.forms {
		if len(f.words) != len(idx) || len(f.joined) < 4 {
			continue
		}
		if d := len(f.joined) - len(ss); d > max || -d > max {
			continue
		}
		if histFar(&h, &f.hist, max) {
			continue
		}
		if osaDistance(ss, f.joined, max) <= max {
			found = addEntries(found, f.entries)
		}
	}
	if len(found) == 1 {
		return found[0], nil
	}
	return -1, found
}

// maxFuzzyBytes bounds the strings the typo matcher compares.
const maxFuzzyBytes = 48

func addEntries(found, entries []int) []int {
	for _, e := range entries {
		if !containsInt(found, e) {
			found = append(found, e)
		}
	}
	return found
}

func isNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// osaDistance is the optimal string alignment distance between a and b
// (insertions, deletions, substitutions and transpositions of neighbours),
// or max+1 as soon as it is known to exceed max.
func osaDistance(a, b string, max int) int {
	if len(a) > maxFuzzyBytes || len(b) > maxFuzzyBytes {
		return max + 1
	}
	var rows [3][maxFuzzyBytes + 1]int
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= len(b); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := prev[j-1] + cost
			if x := prev[j] + 1; x < v {
				v = x
			}
			if x := cur[j-1] + 1; x < v {
				v = x
			}
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				if x := prev2[j-2] + 1; x < v {
					v = x
				}
			}
			cur[j] = v
			if v < best {
				best = v
			}
		}
		if best > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	if d := prev[len(b)]; d <= max {
		return d
	}
	return max + 1
}

// closest suggests the name nearest to an unknown spelling s ("did you mean
// Burgundy (Bur)?"), or "" when no single name is near.
func (n *Names) closest(s string) string {
	if len(s) < 3 || len(s) > maxFuzzyBytes {
		return ""
	}
	max := 3
	if len(s) < 6 {
		max = 2
	}
	best, bestD, tie := -1, max+1, false
	for _, f := range n.forms {
		if d := len(f.joined) - len(s); d > max || -d > max {
			continue
		}
		d := osaDistance(s, f.joined, max)
		if d > max {
			continue
		}
		switch {
		case d < bestD:
			best, bestD, tie = f.entries[0], d, len(f.entries) > 1
		case d == bestD && !containsInt(f.entries, best):
			tie = true
		}
	}
	if best < 0 || tie {
		return ""
	}
	return "did you mean " + describe(n.list[best]) + "?"
}

// isWord reports whether w alone is an exact spelling of one name.
func (n *Names) isWord(w string) bool {
	for _, f := range n.first[w] {
		if len(f.words) == 1 && !f.lenient && len(f.entries) == 1 {
			return true
		}
	}
	return false
}

// uniquePrefix reads toks[p:end] as one word of three letters or more that
// begins exactly one name ("Eng" for England), or returns -1.
func (n *Names) uniquePrefix(toks []Token, p, end int) int {
	if end != p+1 || toks[p].Kind != Word || len(toks[p].Norm) < 3 {
		return -1
	}
	w := toks[p].Norm
	var found []int
	for _, f := range n.forms {
		if !f.lenient && strings.HasPrefix(f.joined, w) {
			found = addEntries(found, f.entries)
		}
	}
	if len(found) != 1 {
		return -1
	}
	return found[0]
}
