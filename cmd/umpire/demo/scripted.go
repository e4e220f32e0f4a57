package demo

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	gomessage "github.com/emersion/go-message"
	"golang.org/x/crypto/ssh"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
	"github.com/umpire-pbem/umpire/mail/signature"
	"github.com/umpire-pbem/umpire/store"
)

// Table is a game played by scripted players over real mail: the game
// master and the players sign with keys made in memory (OpenPGP or SSH),
// send their mail over SMTP and read the answers over IMAP, and the judge
// daemon takes the mail between rounds like "serve --once". The demo plays
// on one; the end-to-end tests play on the real Dovecot and OpenSMTPD.
type Table struct {
	Now   func() time.Time
	DB    *store.DB
	Judge *daemon.Daemon
	// Address is the judge's address.
	Address string
	// Submit sends a raw message to the judge; Fetch reads an address's
	// inbox (all messages, oldest first).
	Submit func(ctx context.Context, from string, raw []byte) error
	Fetch  func(ctx context.Context, addr string) ([][]byte, error)
	// Out, when set, is the folder each seat's received mail is written to.
	Out string
	n   int // messages sent, for Message-IDs
}

// Player is a scripted player (or the game master). It signs with
// OpenPGP (clear-signed body) or SSH (attached file and .sig).
type Player struct {
	Name, Addr, Seat string
	// ClearSign clear-signs text for an OpenPGP player; SSHSign makes the
	// SSH signature of a file for an SSH player. Public is the key sent
	// with the first message.
	ClearSign func(text []byte) ([]byte, error)
	SSHSign   func(content []byte) ([]byte, error)
	Public    []byte
	announced bool // the public key went with a message already
	Received  [][]byte
	// Signed are the files the player signed, as a player keeps them:
	// the clear-signed text, or the file sent with its SSH signature.
	Signed [][]byte
}

// NewPGPPlayer makes an OpenPGP player with a new ed25519 key.
func NewPGPPlayer(name, addr string, now time.Time) (*Player, error) {
	k, err := signature.GenerateServerKey(name, addr, now.Add(-time.Minute))
	if err != nil {
		return nil, err
	}
	sign := func(text []byte) ([]byte, error) { return k.ClearSign(text, now) }
	return &Player{Name: name, Addr: addr, ClearSign: sign, Public: k.ArmoredPublic()}, nil
}

// NewSSHPlayer makes an SSH player with a new ed25519 key.
func NewSSHPlayer(name, addr string) (*Player, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		return nil, err
	}
	pub := bytes.TrimSpace(ssh.MarshalAuthorizedKey(s.PublicKey()))
	sign := func(content []byte) ([]byte, error) { return signature.SignSSH(s, "umpire", content) }
	return &Player{Name: name, Addr: addr, SSHSign: sign, Public: append(pub, []byte(" "+addr+"\n")...)}, nil
}

// Kind says how the player signs.
func (p *Player) Kind() string {
	if p.SSHSign != nil {
		return "SSH (ssh-keygen -Y sign)"
	}
	return "OpenPGP (gpg --clearsign)"
}

// mail composes a signed message from p to the judge: OpenPGP players
// clear-sign the text as the body; SSH players attach it with its .sig. The
// first message carries the public key.
func (t *Table) mail(p *Player, subject, text string, now time.Time) ([]byte, error) {
	t.n++
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s <%s>\r\nTo: %s\r\nMessage-ID: <table-%d-%d@%s>\r\nDate: %s\r\nSubject: %s\r\nMIME-Version: 1.0\r\n",
		p.Name, p.Addr, t.Address, t.n, now.UnixNano(), domainOf(p.Addr), now.Format(time.RFC1123Z), mime.QEncoding.Encode("utf-8", subject))
	b.WriteString("Content-Type: multipart/mixed; boundary=\"part\"\r\n\r\n")
	attach := func(name, ctype string, data []byte) {
		fmt.Fprintf(&b, "--part\r\nContent-Type: %s; name=%q\r\nContent-Disposition: attachment; filename=%q\r\nContent-Transfer-Encoding: base64\r\n\r\n", ctype, name, name)
		enc := base64.StdEncoding.EncodeToString(data)
		for len(enc) > 76 {
			b.WriteString(enc[:76] + "\r\n")
			enc = enc[76:]
		}
		b.WriteString(enc + "\r\n")
	}
	if p.ClearSign != nil {
		signed, err := p.ClearSign([]byte(text))
		if err != nil {
			return nil, err
		}
		p.Signed = append(p.Signed, signed)
		b.WriteString("--part\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
		b.WriteString(strings.ReplaceAll(string(signed), "\n", "\r\n"))
		if !p.announced {
			attach("key.asc", "application/pgp-keys", p.Public)
		}
	} else {
		sig, err := p.SSHSign([]byte(text))
		if err != nil {
			return nil, err
		}
		p.Signed = append(p.Signed, []byte(text))
		b.WriteString("--part\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nSigned with ssh-keygen: see the attachments.\r\n")
		attach("orders.txt", "text/plain", []byte(text))
		attach("orders.txt.sig", "application/octet-stream", sig)
		if !p.announced {
			attach("id_ed25519.pub", "text/plain", p.Public)
		}
	}
	p.announced = true
	b.WriteString("--part--\r\n")
	return []byte(b.String()), nil
}

func domainOf(addr string) string {
	if i := strings.LastIndexByte(addr, '@'); i >= 0 {
		return addr[i+1:]
	}
	return "players.test"
}

// Send mails text signed by p to the judge.
func (t *Table) Send(ctx context.Context, p *Player, subject, text string) error {
	raw, err := t.mail(p, subject, text, t.Now())
	if err != nil {
		return err
	}
	return t.Submit(ctx, p.Addr, raw)
}

// Round lets the judge take its mail and answer, then each player reads
// the new mail in their inbox; it returns the new mails by player.
func (t *Table) Round(ctx context.Context, players ...*Player) (map[*Player][][]byte, error) {
	if err := t.Judge.Once(ctx); err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	out := map[*Player][][]byte{}
	for _, p := range players {
		msgs, err := t.Fetch(ctx, p.Addr)
		if err != nil {
			return nil, fmt.Errorf("inbox of %s: %w", p.Addr, err)
		}
		fresh := msgs[min(len(p.Received), len(msgs)):]
		for _, raw := range fresh {
			p.Received = append(p.Received, raw)
			if t.Out != "" {
				if err := saveMail(filepath.Join(t.Out, p.Dir()), len(p.Received), raw); err != nil {
					return nil, err
				}
			}
		}
		out[p] = fresh
	}
	return out, nil
}

// Dir is the folder of the player's mail under Out: its seat, or gm.
func (p *Player) Dir() string {
	if p.Seat != "" {
		return strings.ToLower(p.Seat)
	}
	return "gm"
}

// State returns the state of game's open step, for the scripted players'
// bot.
func (t *Table) State(ctx context.Context, game string) (st adjudicator.StepRecord, over bool, err error) {
	err = t.DB.View(ctx, func(tx *store.Tx) error {
		jt := tx.Judge(t.Address, t.Now())
		g, err := jt.Game(game)
		if err != nil {
			return err
		}
		over = g.Status == adjudicator.Ended
		st, err = jt.Step(game, g.Step)
		return err
	})
	return st, over, err
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// saveMail writes the n-th mail a player received: the message as sent
// (.eml), and its text, HTML and pictures beside it.
func saveMail(dir string, n int, raw []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	e, err := gomessage.Read(bytes.NewReader(raw))
	if err != nil && e == nil {
		return fmt.Errorf("read mail: %w", err)
	}
	subject := strings.TrimPrefix(e.Header.Get("Subject"), "umpire: ")
	if dec, err := new(mime.WordDecoder).DecodeHeader(subject); err == nil {
		subject = dec
	}
	if i := strings.Index(subject, " (re:"); i > 0 {
		subject = subject[:i]
	}
	base := fmt.Sprintf("%02d-%s", n, strings.Trim(unsafeName.ReplaceAllString(subject, "-"), "-"))
	if err := os.WriteFile(filepath.Join(dir, base+".eml"), raw, 0o644); err != nil {
		return err
	}
	return e.Walk(func(path []int, part *gomessage.Entity, err error) error {
		if err != nil {
			return nil
		}
		ct, _, _ := part.Header.ContentType()
		var ext string
		switch {
		case ct == "text/plain" && strings.HasSuffix(headerFilename(part), "-orders.txt"):
			// the pre-filled order file a briefing attaches, beside it
			ext = "-" + headerFilename(part)
		case ct == "text/plain" && !strings.HasPrefix(headerFilename(part), "orders"):
			ext = ".txt"
		case ct == "text/html":
			ext = ".html"
		case strings.HasPrefix(ct, "image/"):
			ext = "." + strings.TrimPrefix(ct, "image/")
		default:
			return nil
		}
		data, err := io.ReadAll(part.Body)
		if err != nil {
			return nil
		}
		if ext == ".html" {
			// a file on disk cannot resolve cid: references: point at the
			// picture saved beside it.
			data = cidRE.ReplaceAll(data, []byte(`src="`+base+`.png"`))
		}
		return os.WriteFile(filepath.Join(dir, base+ext), data, 0o644)
	})
}

var cidRE = regexp.MustCompile(`src="cid:[^"]*"`)

func headerFilename(e *gomessage.Entity) string {
	_, p, _ := e.Header.ContentDisposition()
	return p["filename"]
}
