package message

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/emersion/go-message/textproto"

	"github.com/umpire-pbem/umpire/mail/mailtest"
)

var updateClients = flag.Bool("update-clients", false, "regenerate testdata/clients with the real gpg and ssh-keygen")

// clientsDir is the corpus of real mail clients' messages, shared with the
// intake's table test (mail/intake/clients_test.go).
const clientsDir = "../testdata/clients"

// An orderFile of the clients corpus: the text the player writes, and
// what the judge must read from it.
type orderFile struct {
	text   string
	header string   // "game/step/seat"
	orders []string // the order lines as the judge reads them
}

// pcsOrders is a turn of the hosted 1995 game (docs/orders-pcs1995.md):
// an air script and an activation queue whose lines run past 72 and 78
// columns, as 1995 queues do.
var pcsOrders = orderFile{
	text: "game: balkan-95\nstep: 3\nseat: NATO\n" +
		"# turn 1, NATO: the Germans arrive next to Trieste, and the air script is the one we agreed\n" +
		"place DE-12P 1306\n" +
		"air US-F16 suppression if enemy patrol >= 2 else patrol\n" +
		"me UK-4AB 2816 attack 2915 bid 3 gs US-F117 advance   # the queue begins: an ME with ground support\n" +
		"move US-1-3ID 1912 2013 2014 2115 if US-1-3ID fresh else move US-1-3ID 1912 2013 skip\n" +
		"pa HR-5GB 3007 if 3007 enemy else skip\n" +
		"ask\nend\n",
	header: "balkan-95/3/NATO",
	orders: []string{
		"place DE-12P 1306",
		"air US-F16 suppression if enemy patrol >= 2 else patrol",
		"me UK-4AB 2816 attack 2915 bid 3 gs US-F117 advance",
		"move US-1-3ID 1912 2013 2014 2115 if US-1-3ID fresh else move US-1-3ID 1912 2013 skip",
		"pa HR-5GB 3007 if 3007 enemy else skip",
		"ask",
	},
}

// smsOrders are conditional orders of the hosted 1914 game
// (docs/orders-sms1914.md), the attack line 94 columns long.
var smsOrders = orderFile{
	text: "game: sms-1914\nstep: 2\nseat: Austria-Hungary\n" +
		"attack 43.40 with 9/VIII+21/VIII+13/VIII intense if odds>=3:1 mandated advance 21/VIII twohex\n" +
		"defend intense if odds<=2:1      # only when the odds are poor\n" +
		"move 9/VIII 20.12 21.12 else 20.12 20.13 nofm\n" +
		"end\n",
	header: "sms-1914/2/Austria-Hungary",
	orders: []string{
		"attack 43.40 with 9/VIII+21/VIII+13/VIII intense if odds>=3:1 mandated advance 21/VIII twohex",
		"defend intense if odds<=2:1",
		"move 9/VIII 20.12 21.12 else 20.12 20.13 nofm",
	},
}

// shortOrders keep every line under 78 columns, as a player writing in
// Gmail's plain text mode must.
var shortOrders = orderFile{
	text: "game: balkan-95\nstep: 3\nseat: NATO\n" +
		"place DE-12P 1306\n" +
		"air US-F16 suppression if enemy patrol >= 2 else patrol\n" +
		"pa HR-5GB 3007  if 3007 enemy else skip   # two blanks kept\n" +
		"end\n",
	header: "balkan-95/3/NATO",
	orders: []string{"place DE-12P 1306", "air US-F16 suppression if enemy patrol >= 2 else patrol", "pa HR-5GB 3007 if 3007 enemy else skip"},
}

// bobOrders1914 is bob's file for the SSH messages: the Serbian side.
var bobOrders1914 = orderFile{
	text: "game: sms-1914\nstep: 2\nseat: Serbia\n" +
		"defend intense if attacker   # hold the Drina line whatever the Austrians send across the river tonight\n" +
		"move I/Sum 31.22 32.22 else 31.22 31.23 nofm\n" +
		"end\n",
	header: "sms-1914/2/Serbia",
	orders: []string{"defend intense if attacker", "move I/Sum 31.22 32.22 else 31.22 31.23 nofm"},
}

// clientOrders are the order files of the corpus's shapes, by the kind
// each shape carries.
var clientOrders = map[mailtest.OrdersKind]orderFile{
	mailtest.Long1995: pcsOrders, mailtest.Long1914: smsOrders, mailtest.ShortLines: shortOrders, mailtest.SSHFile: bobOrders1914,
}

const (
	alice = "Alice <alice@players.test>"
	bob   = "Bob <bob@players.test>"
)

// judgeReportText is the judge's report a reply quotes.
const judgeReportText = "Report: balkan-95 step 2\n\nThe step is adjudicated. Step 3 is open until Thursday 20:00 UTC.\nNext: NATO and Serbia, activation queues.\n-- \numpire\n"

// clientMaker makes the clients corpus with real keys.
type clientMaker struct {
	t     *testing.T
	g     *gpgHome
	alice string // OpenPGP fingerprint
	bob   *sshKey
	rows  []clientRow
	files map[string][]byte
}

// clientRow is one message and its MANIFEST.tsv line.
type clientRow struct {
	name, expect, what, note string
}

// add records a message the judge must read to of's orders.
func (c *clientMaker) add(name, note string, of orderFile, raw []byte) {
	c.files[name] = raw
	c.rows = append(c.rows, clientRow{name, "orders", of.header + " " + strings.Join(of.orders, " | "), note})
}

// refuse records a message the judge must refuse with an answer that
// contains hint.
func (c *clientMaker) refuse(name, note, hint string, raw []byte) {
	c.files[name] = raw
	c.rows = append(c.rows, clientRow{name, "refused", hint, note})
}

// mail is what the client shapes write the corpus with: its order files,
// alice's OpenPGP key and bob's SSH key in the real gpg and ssh-keygen, and
// the header as the judge's mailbox holds it (mailtest.Envelope).
func (c *clientMaker) mail() mailtest.ClientMail {
	return mailtest.ClientMail{
		Orders: mailtest.ClientOrders{Long1995: pcsOrders.text, Long1914: smsOrders.text, Short: shortOrders.text, SSH: bobOrders1914.text},
		Signer: mailtest.ClientSigner{
			ClearSign:   func(text []byte) []byte { return c.g.clearsign(c.alice, text) },
			DetachSign:  func(data []byte) []byte { return c.g.detachSign(c.alice, data, true) },
			Micalg:      c.g.micalg,
			PublicKey:   c.g.run(nil, "--armor", "--export", c.alice),
			Fingerprint: c.alice,
			SSHSign:     c.bob.sign,
		},
		From: alice, SSHFrom: bob, To: "Umpire <judge@umpire.test>",
		Header: mailtest.Envelope,
		Report: judgeReportText,
	}
}

func TestGenerateClients(t *testing.T) {
	if !*updateClients {
		t.Skip("regenerate with: go test ./mail/message -run TestGenerateClients -update-clients")
	}
	needTools(t)
	g := newGPG(t)
	g.now = "20250303T181000!"
	c := &clientMaker{t: t, g: g, alice: g.genKey(alice, "ed25519", "sign"),
		bob: newSSHKey(t, "bob@players.test"), files: map[string][]byte{}}
	for _, s := range mailtest.ClientShapes() {
		raw := s.Mail(c.mail())
		if s.Refused != "" {
			c.refuse(s.Name, s.Note, s.Refused, raw)
			continue
		}
		c.add(s.Name, s.Note, clientOrders[s.Uses], raw)
	}

	old, _ := filepath.Glob(filepath.Join(clientsDir, "*.eml"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(clientsDir, "keys"), 0o755); err != nil {
		t.Fatal(err)
	}
	c.files["keys/alice.asc"] = g.run(nil, "--armor", "--export", c.alice)
	c.files["keys/bob.pub"] = c.bob.public()
	for name, data := range c.files {
		if err := os.WriteFile(filepath.Join(clientsDir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var m strings.Builder
	for _, r := range c.rows {
		fmt.Fprintf(&m, "%s\t%s\t%s\t%s\n", r.name, r.expect, r.what, r.note)
	}
	if err := os.WriteFile(filepath.Join(clientsDir, "MANIFEST.tsv"), []byte(m.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d messages to %s", len(c.rows), clientsDir)
}

// TestClientShapes holds mailtest's client shapes, with which
// cmd/umpire's TestClientsByRealMail writes its mail, to the committed
// corpus they made: each message built afresh with new keys (regenerating
// would change every signature and key, so the committed files are kept)
// has the committed one's MIME structure, header fields in their order and
// folding, transfer encodings and bodies, byte for byte apart from the
// signatures, the keys and the key ids that name them.
func TestClientShapes(t *testing.T) {
	needTools(t)
	g := newGPG(t)
	g.now = "20250303T181000!"
	c := &clientMaker{t: t, g: g, alice: g.genKey(alice, "ed25519", "sign"), bob: newSSHKey(t, "bob@players.test"), files: map[string][]byte{}}
	committed := map[string]mailtest.ClientMessage{}
	for _, m := range mailtest.Clients(t) {
		committed[m.Name] = m
	}
	shapes := mailtest.ClientShapes()
	if len(shapes) != len(committed) {
		t.Errorf("%d client shapes, %d messages in the corpus", len(shapes), len(committed))
	}
	for _, s := range shapes {
		t.Run(s.Name, func(t *testing.T) {
			old, ok := committed[s.Name]
			if !ok {
				t.Fatal("not in the corpus's MANIFEST.tsv")
			}
			want := map[bool]string{true: "refused", false: "orders"}[s.Refused != ""]
			if old.Expect != want || old.Note != s.Note || (s.Refused != "" && old.Hint != s.Refused) {
				t.Errorf("MANIFEST.tsv says %s %q %q; the shape %s %q %q", old.Expect, old.Hint, old.Note, want, s.Refused, s.Note)
			}
			if of := clientOrders[s.Uses]; s.Refused == "" && (of.header != old.Game+"/"+old.Step+"/"+old.Seat || strings.Join(of.orders, "|") != strings.Join(old.Orders, "|")) {
				t.Errorf("the shape carries %s %q, MANIFEST.tsv says %s/%s/%s %q", of.header, of.orders, old.Game, old.Step, old.Seat, old.Orders)
			}
			got, exp := mimeShape(t, s.Mail(c.mail())), mimeShape(t, old.Raw)
			if len(got) != len(exp) {
				t.Fatalf("%d MIME parts, the committed message has %d:\n%s\n----\n%s", len(got), len(exp), strings.Join(got, "\n"), strings.Join(exp, "\n"))
			}
			for i := range got {
				if got[i] != exp[i] {
					t.Errorf("part %d differs:\n%s\n---- committed:\n%s", i, got[i], exp[i])
				}
			}
		})
	}
}

// keyMaterial is what differs between two keys' messages: an armored
// signature or key (collapsed to its kind), a key id.
var (
	armored = regexp.MustCompile(`(?s)-----BEGIN (PGP SIGNATURE|SSH SIGNATURE|PGP PUBLIC KEY BLOCK)-----.*?-----END (PGP SIGNATURE|SSH SIGNATURE|PGP PUBLIC KEY BLOCK)-----`)
	keyID   = regexp.MustCompile(`0x[0-9A-F]{8,16}\b`)
)

// mimeShape lists the entities of a message depth first: each one's
// header fields as written (folding kept), and a leaf's body, as sent
// when it holds no signature or key, else decoded with each armored block
// collapsed. Every line of the message must end in CRLF.
func mimeShape(t *testing.T, raw []byte) []string {
	t.Helper()
	if bytes.Contains(bytes.ReplaceAll(raw, []byte("\r\n"), nil), []byte("\n")) {
		t.Errorf("a line does not end in CRLF")
	}
	var out []string
	var walk func(h textproto.Header, body []byte)
	walk = func(h textproto.Header, body []byte) {
		var b strings.Builder
		for f := h.Fields(); f.Next(); {
			r, err := f.Raw()
			if err != nil {
				t.Fatal(err)
			}
			b.Write(r)
		}
		mt, params, _ := mime.ParseMediaType(h.Get("Content-Type"))
		if strings.HasPrefix(mt, "multipart/") {
			out = append(out, keyID.ReplaceAllString(b.String(), "0xKEY"))
			mr := textproto.NewMultipartReader(bytes.NewReader(body), params["boundary"])
			for {
				p, err := mr.NextPart()
				if err == io.EOF {
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				pb, err := io.ReadAll(p)
				if err != nil {
					t.Fatal(err)
				}
				walk(p.Header, pb)
			}
		}
		decoded := body
		switch strings.ToLower(h.Get("Content-Transfer-Encoding")) {
		case "base64":
			d, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(string(body)), ""))
			if err != nil {
				t.Fatal(err)
			}
			decoded = d
		case "quoted-printable":
			d, err := io.ReadAll(quotedprintable.NewReader(bytes.NewReader(body)))
			if err != nil {
				t.Fatal(err)
			}
			decoded = d
		}
		text := string(body)
		if masked := armored.ReplaceAllString(string(decoded), "-----$1-----"); masked != string(decoded) {
			text = "(decoded, keys and signatures collapsed)\n" + masked
		}
		out = append(out, keyID.ReplaceAllString(b.String(), "0xKEY")+"\r\n"+text)
	}
	br := bufio.NewReader(bytes.NewReader(raw))
	h, err := textproto.ReadHeader(br)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(br)
	if err != nil {
		t.Fatal(err)
	}
	walk(h, body)
	return out
}
