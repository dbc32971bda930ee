package mailserver

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/mail"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-message/textproto"
	"github.com/emersion/go-sasl"
)

// imapSession is one IMAP connection to the embedded server.
type imapSession struct {
	srv    *Server
	user   *user
	sel    *selected
	closed bool
}

type selected struct {
	mb        *mailbox
	tracker   *imapserver.SessionTracker
	readOnly  bool
	searchRes imap.UIDSet
}

var (
	_ imapserver.SessionIMAP4rev2   = (*imapSession)(nil)
	_ imapserver.SessionSASL        = (*imapSession)(nil)
	_ imapserver.SessionAppendLimit = (*imapSession)(nil)
)

// AppendLimit is the largest APPEND: the largest mail SMTP takes.
func (s *imapSession) AppendLimit() uint32 { return uint32(min(s.srv.cfg.MaxMessageBytes, 1<<32-1)) }

// imapQuota turns a *QuotaError into NO [OVERQUOTA] (RFC 9208).
func imapQuota(err error) error {
	var qe *QuotaError
	if errors.As(err, &qe) {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeOverQuota, Text: qe.Error()}
	}
	return err
}

var errReadOnly = &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Mailbox is read-only (EXAMINE)"}

func (s *imapSession) store() *store { return s.srv.store }

func (s *imapSession) Close() error {
	st := s.store()
	st.mu.Lock()
	s.unselectLocked()
	closed := s.closed
	s.closed = true
	st.mu.Unlock()
	if !closed {
		s.srv.sessions.Done()
	}
	return nil
}

// unselectLocked drops the selection. Callers hold the store lock: an
// IDLE goroutine may still be reading s.sel when the connection closes.
func (s *imapSession) unselectLocked() {
	if s.sel != nil {
		s.sel.tracker.Close()
		s.sel = nil
	}
}

func (s *imapSession) Login(username, password string) error {
	u, err := s.srv.login(username, password)
	switch {
	case errors.Is(err, errThrottled):
		return imapThrottled
	case err != nil:
		return imapserver.ErrAuthFailed
	}
	s.user = u
	return nil
}

func (s *imapSession) AuthenticateMechanisms() []string { return s.srv.mechanisms() }

func (s *imapSession) Authenticate(mech string) (sasl.Server, error) {
	login := func(identity, username, password string) error {
		if identity != "" && !strings.EqualFold(identity, username) {
			return imapserver.ErrAuthFailed
		}
		return s.Login(username, password)
	}
	switch strings.ToUpper(mech) {
	case "PLAIN":
		return sasl.NewPlainServer(login), nil
	case "LOGIN":
		return newLoginServer(func(u, p string) error { return login("", u, p) }), nil
	}
	if s.srv.cfg.BearerCheck != nil {
		bearer := func(user, token string) error {
			u, err := s.srv.bearerLogin(user, token)
			if err != nil {
				return imapserver.ErrAuthFailed
			}
			s.user = u
			return nil
		}
		if srv := newBearerServer(strings.ToUpper(mech), bearer); srv != nil {
			return srv, nil
		}
	}
	return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Unsupported SASL mechanism"}
}

func (s *imapSession) mailbox(name string) (*mailbox, error) {
	mb := s.user.mailboxes[mailboxKey(name)]
	if mb == nil {
		return nil, errNoMailbox
	}
	return mb, nil
}

func (s *imapSession) Select(name string, opts *imap.SelectOptions) (*imap.SelectData, error) {
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	mb, err := s.mailbox(name)
	if err != nil {
		return nil, err
	}
	s.unselectLocked()
	s.sel = &selected{mb: mb, tracker: mb.tracker.NewSession(), readOnly: opts != nil && opts.ReadOnly}
	flags := []imap.Flag{imap.FlagSeen, imap.FlagAnswered, imap.FlagFlagged, imap.FlagDeleted, imap.FlagDraft}
	data := &imap.SelectData{
		Flags:          flags,
		PermanentFlags: append(slices.Clone(flags), imap.FlagWildcard),
		NumMessages:    uint32(len(mb.msgs)),
		UIDNext:        imap.UID(mb.uidNext),
		UIDValidity:    mb.uidValidity,
	}
	for i, m := range mb.msgs {
		if !m.hasFlag(imap.FlagSeen) {
			data.FirstUnseenSeqNum = uint32(i + 1)
			break
		}
	}
	return data, nil
}

func (s *imapSession) Unselect() error {
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	s.unselectLocked()
	return nil
}

func (s *imapSession) Create(name string, _ *imap.CreateOptions) error {
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	_, err := st.createMailboxLocked(s.user, name)
	return err
}

func (s *imapSession) Delete(name string) error {
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	if mailboxKey(name) == "INBOX" {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "INBOX cannot be deleted"}
	}
	return st.deleteMailboxLocked(s.user, name)
}

func (s *imapSession) Rename(oldName, newName string, _ *imap.RenameOptions) error {
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.renameMailboxLocked(s.user, oldName, newName)
}

func (s *imapSession) setSubscribed(name string, on bool) error {
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	mb, err := s.mailbox(name)
	if err != nil {
		return err
	}
	mb.subscribed = on
	return st.db.Update(mb.saveMeta)
}

func (s *imapSession) Subscribe(name string) error   { return s.setSubscribed(name, true) }
func (s *imapSession) Unsubscribe(name string) error { return s.setSubscribed(name, false) }

func (s *imapSession) Namespace() (*imap.NamespaceData, error) {
	return &imap.NamespaceData{Personal: []imap.NamespaceDescriptor{{Delim: '/'}}}, nil
}

func (s *imapSession) List(w *imapserver.ListWriter, ref string, patterns []string, opts *imap.ListOptions) error {
	if len(patterns) == 0 {
		return w.WriteList(&imap.ListData{Attrs: []imap.MailboxAttr{imap.MailboxAttrNoSelect}, Delim: '/'})
	}
	st := s.store()
	st.mu.Lock()
	var out []imap.ListData
	for name, mb := range s.user.mailboxes {
		match := false
		for _, p := range patterns {
			if imapserver.MatchList(name, '/', ref, p) {
				match = true
				break
			}
		}
		if !match || (opts.SelectSubscribed && !mb.subscribed) {
			continue
		}
		d := imap.ListData{Mailbox: name, Delim: '/'}
		if mb.subscribed {
			d.Attrs = append(d.Attrs, imap.MailboxAttrSubscribed)
		}
		if opts.ReturnStatus != nil {
			d.Status = mb.status(opts.ReturnStatus)
		}
		out = append(out, d)
	}
	st.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Mailbox < out[j].Mailbox })
	for i := range out {
		if err := w.WriteList(&out[i]); err != nil {
			return err
		}
	}
	return nil
}

func (mb *mailbox) status(opts *imap.StatusOptions) *imap.StatusData {
	d := &imap.StatusData{Mailbox: mb.name}
	n := uint32(len(mb.msgs))
	if opts.NumMessages {
		d.NumMessages = &n
	}
	if opts.UIDNext {
		d.UIDNext = imap.UID(mb.uidNext)
	}
	if opts.UIDValidity {
		d.UIDValidity = mb.uidValidity
	}
	var unseen, deleted uint32
	var size int64
	for _, m := range mb.msgs {
		if !m.hasFlag(imap.FlagSeen) {
			unseen++
		}
		if m.hasFlag(imap.FlagDeleted) {
			deleted++
		}
		size += m.size
	}
	if opts.NumUnseen {
		d.NumUnseen = &unseen
	}
	if opts.NumDeleted {
		d.NumDeleted = &deleted
	}
	if opts.Size {
		d.Size = &size
	}
	if opts.NumRecent {
		var zero uint32
		d.NumRecent = &zero
	}
	return d
}

func (s *imapSession) Status(name string, opts *imap.StatusOptions) (*imap.StatusData, error) {
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	mb, err := s.mailbox(name)
	if err != nil {
		return nil, err
	}
	return mb.status(opts), nil
}

func (s *imapSession) Append(name string, r imap.LiteralReader, opts *imap.AppendOptions) (*imap.AppendData, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	mb, err := s.mailbox(name)
	if err != nil {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "No such mailbox"}
	}
	msgs, err := st.deliverLocked([]*mailbox{mb}, [][]byte{nil}, raw, opts.Flags, opts.Time)
	if err != nil {
		return nil, imapQuota(err)
	}
	return &imap.AppendData{UID: imap.UID(msgs[0].uid), UIDValidity: mb.uidValidity}, nil
}

func (s *imapSession) Poll(w *imapserver.UpdateWriter, allowExpunge bool) error {
	if s.sel == nil {
		return nil
	}
	return s.sel.tracker.Poll(w, allowExpunge)
}

// Idle registers for wake-ups before it flushes pending updates, so an
// update that lands between the previous command and IDLE is never missed
// (the cause of go-imap's occasional lost IDLE notification).
func (s *imapSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	st := s.store()
	st.mu.Lock()
	sel := s.sel
	if sel == nil {
		st.mu.Unlock()
		<-stop
		return nil
	}
	ch := make(chan struct{}, 1)
	sel.mb.waiters[ch] = struct{}{}
	st.mu.Unlock()
	defer func() {
		st.mu.Lock()
		delete(sel.mb.waiters, ch)
		st.mu.Unlock()
	}()
	for {
		if err := sel.tracker.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-ch:
		case <-stop:
			return nil
		}
	}
}

// indexes resolves a sequence or UID set to indexes into mb.msgs, in
// ascending order. Callers hold the store lock.
func (sel *selected) indexes(numSet imap.NumSet) []int {
	mb := sel.mb
	if imap.IsSearchRes(numSet) {
		numSet = sel.searchRes
	}
	var out []int
	switch set := numSet.(type) {
	case imap.SeqSet:
		var maxSeq uint32
		for i := range mb.msgs {
			if c := sel.tracker.EncodeSeqNum(uint32(i + 1)); c > maxSeq {
				maxSeq = c
			}
		}
		set = staticSeqSet(set, maxSeq)
		for i := range mb.msgs {
			c := sel.tracker.EncodeSeqNum(uint32(i + 1))
			if c != 0 && set.Contains(c) {
				out = append(out, i)
			}
		}
	case imap.UIDSet:
		maxUID := mb.uidNext - 1
		if n := len(mb.msgs); n > 0 {
			maxUID = mb.msgs[n-1].uid
		}
		set = staticUIDSet(set, imap.UID(maxUID))
		for i, m := range mb.msgs {
			if set.Contains(imap.UID(m.uid)) {
				out = append(out, i)
			}
		}
	}
	return out
}

func staticSeqSet(set imap.SeqSet, maxNum uint32) imap.SeqSet {
	out := make(imap.SeqSet, len(set))
	for i, r := range set {
		if r.Start == 0 {
			r.Start = maxNum
		}
		if r.Stop == 0 {
			r.Stop = maxNum
		}
		if r.Start > r.Stop {
			r.Start, r.Stop = r.Stop, r.Start
		}
		out[i] = r
	}
	return out
}

func staticUIDSet(set imap.UIDSet, maxUID imap.UID) imap.UIDSet {
	out := make(imap.UIDSet, len(set))
	for i, r := range set {
		if r.Start == 0 {
			r.Start = maxUID
		}
		if r.Stop == 0 {
			r.Stop = maxUID
		}
		if r.Start > r.Stop {
			r.Start, r.Stop = r.Stop, r.Start
		}
		out[i] = r
	}
	return out
}

func (s *imapSession) Expunge(_ *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	if s.sel.readOnly {
		return errReadOnly
	}
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.expungeLocked(s.sel.mb, func(m *message) bool {
		return m.hasFlag(imap.FlagDeleted) && (uids == nil || uids.Contains(imap.UID(m.uid)))
	})
}

type fetchItem struct {
	seq      uint32
	msg      *message // read its content (pinned), not its fields
	uid      uint32
	size     int64
	date     time.Time
	flags    []imap.Flag
	newFlags bool
}

// needsContent reports whether a FETCH reads message contents.
func needsContent(opts *imap.FetchOptions) bool {
	return opts.Envelope || opts.BodyStructure != nil || len(opts.BodySection) > 0 ||
		len(opts.BinarySection) > 0 || len(opts.BinarySectionSize) > 0
}

// Fetch answers from memory what memory has (UID, flags, dates, sizes)
// and reads contents from the file after the store lock is released,
// the messages pinned meanwhile.
func (s *imapSession) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, opts *imap.FetchOptions) error {
	markSeen := false
	for _, bs := range opts.BodySection {
		markSeen = markSeen || !bs.Peek
	}
	for _, bs := range opts.BinarySection {
		markSeen = markSeen || !bs.Peek
	}
	markSeen = markSeen && !s.sel.readOnly
	content := needsContent(opts)

	st := s.store()
	st.mu.Lock()
	var items []fetchItem
	var pinned []*message
	defer func() {
		if len(pinned) > 0 {
			st.unpin(pinned)
		}
	}()
	for _, i := range s.sel.indexes(numSet) {
		m := s.sel.mb.msgs[i]
		it := fetchItem{seq: s.sel.tracker.EncodeSeqNum(uint32(i + 1)), msg: m, uid: m.uid, size: m.size, date: m.date}
		if markSeen && !m.hasFlag(imap.FlagSeen) {
			if err := st.setFlagsLocked(s.sel.mb, i, imap.StoreFlagsAdd, []imap.Flag{imap.FlagSeen}, s.sel.tracker); err != nil {
				st.mu.Unlock()
				return err
			}
			it.newFlags = true
		}
		it.flags = slices.Clone(m.flags)
		if content {
			m.pin()
			pinned = append(pinned, m)
		}
		items = append(items, it)
	}
	st.mu.Unlock()

	for _, it := range items {
		if err := writeFetch(w.CreateMessage(it.seq), it, opts, st); err != nil {
			return err
		}
	}
	return nil
}

// copyBufSize is the piece of a content read at a time.
const copyBufSize = 256 << 10

func writeFetch(rw *imapserver.FetchResponseWriter, it fetchItem, opts *imap.FetchOptions, st *store) error {
	rw.WriteUID(imap.UID(it.uid))
	if opts.Flags || it.newFlags {
		rw.WriteFlags(it.flags)
	}
	if opts.InternalDate {
		rw.WriteInternalDate(it.date)
	}
	if opts.RFC822Size {
		rw.WriteRFC822Size(it.size)
	}
	open := func() *bufio.Reader { return bufio.NewReaderSize(st.reader(it.msg.content), 32<<10) }
	if opts.Envelope {
		if h, err := textproto.ReadHeader(open()); err == nil {
			rw.WriteEnvelope(imapserver.ExtractEnvelope(h))
		}
	}
	if opts.BodyStructure != nil {
		rw.WriteBodyStructure(imapserver.ExtractBodyStructure(open()))
	}
	for _, bs := range opts.BodySection {
		if err := writeBodySection(rw, bs, it, st); err != nil {
			return err
		}
	}
	for _, bs := range opts.BinarySection {
		b := imapserver.ExtractBinarySection(open(), bs)
		if err := writeLiteral(rw.WriteBinarySection(bs, int64(len(b))), b); err != nil {
			return err
		}
	}
	for _, bss := range opts.BinarySectionSize {
		rw.WriteBinarySectionSize(bss, imapserver.ExtractBinarySectionSize(open(), bss))
	}
	return rw.Close()
}

// writeBodySection writes BODY[section]. The whole message (or a
// <partial> of it) is streamed from the file as stored, byte for byte,
// even when its header cannot be parsed (the library helper would return
// nothing then); a part is cut out by the library.
func writeBodySection(rw *imapserver.FetchResponseWriter, bs *imap.FetchItemBodySection, it fetchItem, st *store) error {
	if bs.Specifier != imap.PartSpecifierNone || len(bs.Part) > 0 || len(bs.HeaderFields) > 0 || len(bs.HeaderFieldsNot) > 0 {
		b := imapserver.ExtractBodySection(bufio.NewReaderSize(st.reader(it.msg.content), 32<<10), bs)
		return writeLiteral(rw.WriteBodySection(bs, int64(len(b))), b)
	}
	off, n := int64(0), it.size
	if p := bs.Partial; p != nil {
		off = min(p.Offset, it.size)
		n = min(p.Size, it.size-off)
	}
	r := st.reader(it.msg.content)
	if off > 0 {
		if _, err := io.CopyN(io.Discard, r, off); err != nil {
			return fmt.Errorf("mailserver: read message %d: %w", it.uid, err)
		}
	}
	wc := rw.WriteBodySection(bs, n)
	// a buffer the size of the section, up to copyBufSize: most mails
	// are a few kilobytes, and a FETCH of a batch sends hundreds
	_, err := io.CopyBuffer(wc, io.LimitReader(r, n), make([]byte, max(min(n, copyBufSize), 512)))
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	return err
}

func writeLiteral(wc io.WriteCloser, b []byte) error {
	_, err := wc.Write(b)
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	return err
}

func (s *imapSession) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, _ *imap.StoreOptions) error {
	if s.sel.readOnly {
		return errReadOnly
	}
	st := s.store()
	st.mu.Lock()
	var items []fetchItem
	idx := s.sel.indexes(numSet)
	if err := st.setFlagsManyLocked(s.sel.mb, idx, flags.Op, flags.Flags, s.sel.tracker); err != nil {
		st.mu.Unlock()
		return err
	}
	for _, i := range idx {
		m := s.sel.mb.msgs[i]
		items = append(items, fetchItem{seq: s.sel.tracker.EncodeSeqNum(uint32(i + 1)), msg: m, uid: m.uid, flags: slices.Clone(m.flags), newFlags: true})
	}
	st.mu.Unlock()
	if flags.Silent {
		return nil
	}
	for _, it := range items {
		if err := writeFetch(w.CreateMessage(it.seq), it, &imap.FetchOptions{Flags: true}, st); err != nil {
			return err
		}
	}
	return nil
}

// copyIndexesLocked appends copies of the messages at idx to dest.
func (s *imapSession) copyIndexesLocked(idx []int, dest *mailbox) (*imap.CopyData, error) {
	src := make([]*message, len(idx))
	for j, i := range idx {
		src[j] = s.sel.mb.msgs[i]
	}
	copies, err := s.store().copyLocked(src, dest)
	if err != nil {
		return nil, imapQuota(err)
	}
	var srcUIDs, dstUIDs imap.UIDSet
	for j := range src {
		srcUIDs.AddNum(imap.UID(src[j].uid))
		dstUIDs.AddNum(imap.UID(copies[j].uid))
	}
	return &imap.CopyData{UIDValidity: dest.uidValidity, SourceUIDs: srcUIDs, DestUIDs: dstUIDs}, nil
}

func (s *imapSession) copyDest(name string) (*mailbox, error) {
	dest := s.user.mailboxes[mailboxKey(name)]
	if dest == nil {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "No such mailbox"}
	}
	if dest == s.sel.mb {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Source and destination are the same mailbox"}
	}
	return dest, nil
}

func (s *imapSession) Copy(numSet imap.NumSet, name string) (*imap.CopyData, error) {
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	dest, err := s.copyDest(name)
	if err != nil {
		return nil, err
	}
	return s.copyIndexesLocked(s.sel.indexes(numSet), dest)
}

// Move copies, then expunges the originals; the EXPUNGE responses reach
// this session through Poll, right after the COPYUID.
func (s *imapSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, name string) error {
	if s.sel.readOnly {
		return errReadOnly
	}
	st := s.store()
	st.mu.Lock()
	dest, err := s.copyDest(name)
	if err != nil {
		st.mu.Unlock()
		return err
	}
	idx := s.sel.indexes(numSet)
	data, err := s.copyIndexesLocked(idx, dest)
	if err != nil {
		st.mu.Unlock()
		return err
	}
	moved := map[*message]bool{}
	for _, i := range idx {
		moved[s.sel.mb.msgs[i]] = true
	}
	err = st.expungeLocked(s.sel.mb, func(m *message) bool { return moved[m] })
	st.mu.Unlock()
	if err != nil {
		return err
	}
	return w.WriteCopyData(data)
}

// Search decides from memory what memory has and reads contents (for
// HEADER, TEXT, BODY, SENTSINCE…) from the file after the store lock is
// released; a message expunged meanwhile does not match.
func (s *imapSession) Search(kind imapserver.NumKind, criteria *imap.SearchCriteria, opts *imap.SearchOptions) (*imap.SearchData, error) {
	st := s.store()
	st.mu.Lock()
	mb := s.sel.mb
	crit := s.staticCriteria(criteria)
	views := make([]*msgView, len(mb.msgs))
	for i, m := range mb.msgs {
		views[i] = &msgView{st: st, seq: s.sel.tracker.EncodeSeqNum(uint32(i + 1)), uid: m.uid, size: m.size,
			date: m.date, flags: slices.Clone(m.flags), content: m.content}
	}
	st.mu.Unlock()
	var (
		data   imap.SearchData
		seqSet imap.SeqSet
		uidSet imap.UIDSet
	)
	for _, v := range views {
		if !matchCriteria(v, crit) {
			continue
		}
		uidSet.AddNum(imap.UID(v.uid))
		num := v.uid
		if kind == imapserver.NumKindSeq {
			if v.seq == 0 {
				continue
			}
			seqSet.AddNum(v.seq)
			num = v.seq
		}
		if data.Min == 0 || num < data.Min {
			data.Min = num
		}
		if num > data.Max {
			data.Max = num
		}
		data.Count++
	}
	if kind == imapserver.NumKindSeq {
		data.All = seqSet
	} else {
		data.All = uidSet
	}
	if opts != nil && opts.ReturnSave {
		st.mu.Lock()
		if s.sel != nil {
			s.sel.searchRes = uidSet
		}
		st.mu.Unlock()
	}
	return &data, nil
}

// staticCriteria replaces "*" and "$" in the number sets of a search.
func (s *imapSession) staticCriteria(c *imap.SearchCriteria) *imap.SearchCriteria {
	out := *c
	out.SeqNum, out.UID = nil, nil
	mb := s.sel.mb
	for _, set := range c.SeqNum {
		if imap.IsSearchRes(set) {
			out.UID = append(out.UID, s.sel.searchRes)
			continue
		}
		var maxSeq uint32
		for i := range mb.msgs {
			maxSeq = max(maxSeq, s.sel.tracker.EncodeSeqNum(uint32(i+1)))
		}
		out.SeqNum = append(out.SeqNum, staticSeqSet(set, maxSeq))
	}
	for _, set := range c.UID {
		if imap.IsSearchRes(set) {
			out.UID = append(out.UID, s.sel.searchRes)
			continue
		}
		maxUID := mb.uidNext - 1
		if n := len(mb.msgs); n > 0 {
			maxUID = mb.msgs[n-1].uid
		}
		out.UID = append(out.UID, staticUIDSet(set, imap.UID(maxUID)))
	}
	out.Not = make([]imap.SearchCriteria, len(c.Not))
	for i := range c.Not {
		out.Not[i] = *s.staticCriteria(&c.Not[i])
	}
	out.Or = make([][2]imap.SearchCriteria, len(c.Or))
	for i := range c.Or {
		out.Or[i] = [2]imap.SearchCriteria{*s.staticCriteria(&c.Or[i][0]), *s.staticCriteria(&c.Or[i][1])}
	}
	return &out
}

// msgView is what SEARCH knows of a message; its header is read from
// the file once, when a criterion needs it.
type msgView struct {
	st      *store
	seq     uint32
	uid     uint32
	size    int64
	date    time.Time
	flags   []imap.Flag
	content uint64
	header  *textproto.Header
}

func (v *msgView) hasFlag(f imap.Flag) bool { return slices.Contains(v.flags, canonicalFlag(f)) }

func (v *msgView) readHeader() textproto.Header {
	if v.header == nil {
		h, _ := textproto.ReadHeader(bufio.NewReader(v.st.reader(v.content)))
		v.header = &h
	}
	return *v.header
}

// contains reports whether the message (or its body) contains sub,
// without regard to case, reading it a piece at a time.
func (v *msgView) contains(sub string, bodyOnly bool) bool {
	needle := bytes.ToLower([]byte(sub))
	if len(needle) == 0 {
		return true
	}
	r := bufio.NewReaderSize(v.st.reader(v.content), 32<<10)
	if bodyOnly && !skipHeader(r) {
		return false
	}
	overlap := 2*len(needle) + 8 // lower-casing may change byte lengths a little
	buf := make([]byte, 64<<10)
	var tail []byte
	for {
		n, err := r.Read(buf)
		if n > 0 {
			window := append(tail, buf[:n]...)
			if bytes.Contains(bytes.ToLower(window), needle) {
				return true
			}
			tail = slices.Clone(window[max(0, len(window)-overlap):])
		}
		if err != nil {
			return false
		}
	}
}

// skipHeader reads up to and including the blank line after the header;
// false when there is none.
func skipHeader(r *bufio.Reader) bool {
	for {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return false
		}
		if len(line) == 1 || len(line) == 2 && line[0] == '\r' {
			return true
		}
	}
}

func matchCriteria(v *msgView, c *imap.SearchCriteria) bool {
	for _, set := range c.SeqNum {
		if v.seq == 0 || !set.Contains(v.seq) {
			return false
		}
	}
	for _, set := range c.UID {
		if !set.Contains(imap.UID(v.uid)) {
			return false
		}
	}
	if !inDateRange(v.date, c.Since, c.Before) {
		return false
	}
	for _, f := range c.Flag {
		if !v.hasFlag(f) {
			return false
		}
	}
	for _, f := range c.NotFlag {
		if v.hasFlag(f) {
			return false
		}
	}
	if c.Larger != 0 && v.size <= c.Larger || c.Smaller != 0 && v.size >= c.Smaller {
		return false
	}
	if len(c.Header) > 0 || !c.SentSince.IsZero() || !c.SentBefore.IsZero() {
		h := v.readHeader()
		for _, hc := range c.Header {
			vals := h.Values(hc.Key)
			if len(vals) == 0 {
				return false
			}
			if hc.Value != "" && !slices.ContainsFunc(vals, func(x string) bool { return containsFold(decodeHeader(x), hc.Value) }) {
				return false
			}
		}
		if !c.SentSince.IsZero() || !c.SentBefore.IsZero() {
			t, err := mail.ParseDate(h.Get("Date"))
			if err != nil || !inDateRange(t, c.SentSince, c.SentBefore) {
				return false
			}
		}
	}
	for _, t := range c.Text {
		if !v.contains(t, false) {
			return false
		}
	}
	for _, t := range c.Body {
		if !v.contains(t, true) {
			return false
		}
	}
	for i := range c.Not {
		if matchCriteria(v, &c.Not[i]) {
			return false
		}
	}
	for i := range c.Or {
		if !matchCriteria(v, &c.Or[i][0]) && !matchCriteria(v, &c.Or[i][1]) {
			return false
		}
	}
	return true
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// decodeHeader decodes the RFC 2047 words of a header value; words in a
// charset it does not know stay as they are.
func decodeHeader(v string) string {
	if d, err := new(mime.WordDecoder).DecodeHeader(v); err == nil {
		return d
	}
	return v
}

// inDateRange compares calendar dates only, as SEARCH SINCE/BEFORE do.
func inDateRange(t, since, before time.Time) bool {
	day := func(x time.Time) time.Time { return time.Date(x.Year(), x.Month(), x.Day(), 0, 0, 0, 0, time.UTC) }
	d := day(t)
	if !since.IsZero() && d.Before(day(since)) {
		return false
	}
	if !before.IsZero() && !d.Before(day(before)) {
		return false
	}
	return true
}
