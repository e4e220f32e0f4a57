package intake

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/textproto"
	"slices"
	"strings"
	"time"

	"github.com/emersion/go-msgauth/dkim"
	"golang.org/x/net/publicsuffix"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/mail/message"
)

// DKIM checks the DKIM signatures (RFC 6376) of the messages no key
// signed, for the games that let a mail address hold a seat
// (adjudicator.IdentityDKIM). Its zero value looks keys up with the
// system resolver within DefaultDKIMTimeout.
type DKIM struct {
	// LookupTXT returns the TXT records of a DNS name; nil: the system
	// resolver (net.Resolver.LookupTXT).
	LookupTXT func(ctx context.Context, name string) ([]string, error)
	// Timeout bounds every look-up of one message together; 0:
	// DefaultDKIMTimeout. It must stay within the message budget
	// (adjudicator.DefaultMessageTime).
	Timeout time.Duration
}

// DefaultDKIMTimeout bounds the DNS look-ups of one message's DKIM keys.
const DefaultDKIMTimeout = 3 * time.Second

// maxDKIMSignatures is how many DKIM signatures of one message are
// checked: each costs a DNS look-up.
const maxDKIMSignatures = 4

// dkimHeaders are the header fields a DKIM signature must cover for the
// judge to take the message as its From address's: who, what, when, and
// the Message-ID by which a copy sent again is known.
var dkimHeaders = []string{"From", "Subject", "Date", "Message-ID"}

// verifyDKIM returns the From address of raw (parsed as msg) as a DKIM
// signature of its domain vouches for it, or why none does: the words
// after "Your message does not count: ", with what to do. Only a
// signature that verifies, whose d= is aligned with the From domain
// (relaxed, as DMARC aligns: the same organisational domain), that covers
// From, Subject, Date and Message-ID and the whole body (no l=) counts.
func (d *DKIM) verifyDKIM(raw []byte, msg *message.Message) (*adjudicator.Signature, string) {
	sigs := msg.Header["Dkim-Signature"]
	from := msg.From.Addr
	_, fromDomain, _ := strings.Cut(from, "@")
	fromDomain = strings.ToLower(strings.TrimSuffix(fromDomain, "."))
	switch {
	case len(sigs) == 0:
		return nil, "it carries no DKIM signature: its mail provider does not sign its mail, or the message " +
			"did not come from that provider. Send it from a provider that signs (Gmail, Outlook.com, " +
			"Fastmail, Proton and most others do)"
	case from == "" || fromDomain == "":
		return nil, "its From header holds no mail address, so no DKIM signature can vouch for it"
	}
	for _, h := range dkimHeaders {
		if n := len(msg.Header[textproto.CanonicalMIMEHeaderKey(h)]); n > 1 {
			return nil, fmt.Sprintf("it has %d %s headers, and a DKIM signature cannot say which one it covers: "+
				"send it again from your mail program as it writes it", n, h)
		}
	}
	if list, err := mail.ParseAddressList(msg.FromRaw); err == nil && len(list) > 1 {
		return nil, "its From header names more than one address: send it from your own address alone"
	}
	timeout := d.Timeout
	if timeout <= 0 {
		timeout = DefaultDKIMTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	lookup := d.LookupTXT
	if lookup == nil {
		lookup = net.DefaultResolver.LookupTXT
	}
	verifs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{
		LookupTXT:        func(name string) ([]string, error) { return lookup(ctx, name) },
		MaxVerifications: maxDKIMSignatures,
	})
	if err != nil && !errors.Is(err, dkim.ErrTooManySignatures) {
		return nil, "its DKIM signature could not be read (" + err.Error() + ")"
	}
	// The signatures as written, in the order go-msgauth checked them,
	// for what it does not say: l= and the selector.
	var problems []dkimProblem
	for i, v := range verifs {
		var tags map[string]string
		if i < len(sigs) {
			tags = dkimTags(sigs[i])
		}
		p := judgeDKIM(v, tags, fromDomain)
		if p.why == "" {
			body := bodyOf(raw)
			content := msg.Text
			if !strings.Contains(content, "game:") {
				// orders attached as a text file, as some programs send them
				for _, a := range msg.Attachments {
					if strings.HasPrefix(a.ContentType, "text/") && strings.Contains(a.Text(), "game:") {
						content = a.Text()
						break
					}
				}
			}
			return &adjudicator.Signature{Kind: adjudicator.KindDKIM, Fingerprint: adjudicator.DKIMHolder(from),
				Content: content, Signed: body}, ""
		}
		problems = append(problems, p)
	}
	if len(problems) == 0 {
		return nil, "its DKIM signature could not be read"
	}
	// The signature of the From domain says most; one of another domain
	// says it was re-signed.
	best := problems[0]
	for _, p := range problems {
		if p.aligned && !best.aligned {
			best = p
		}
	}
	return nil, best.why
}

// dkimProblem is why one DKIM signature does not count, and whether it
// is the From domain's.
type dkimProblem struct {
	why     string
	aligned bool
}

// judgeDKIM says why verification v (tags as written) does not make the
// message fromDomain's: "" when it does.
func judgeDKIM(v *dkim.Verification, tags map[string]string, fromDomain string) dkimProblem {
	d := strings.ToLower(strings.TrimSuffix(v.Domain, "."))
	p := dkimProblem{aligned: aligned(d, fromDomain)}
	name := d
	if name == "" {
		name = "its signer"
	}
	err := v.Err
	switch {
	case tags["l"] != "":
		p.why = fmt.Sprintf("the DKIM signature of %s covers only the first %s bytes of the body (l=%s), so anything "+
			"could follow them: the judge takes only a signature of the whole body. Ask your provider, or send from one "+
			"that signs the whole message", name, tags["l"], tags["l"])
	case d != "" && !p.aligned:
		p.why = fmt.Sprintf("it is signed by %s (DKIM d=%s), not by %s, the domain of its From address: a mailing list, "+
			"forwarder or other server re-signed it, and its signature vouches for that server, not for you. Send it "+
			"to the judge directly from your own address", d, d, fromDomain)
	case err != nil && strings.Contains(err.Error(), "body hash did not verify"):
		p.why = fmt.Sprintf("its body was changed after %s signed it (the DKIM body hash does not match): a server on "+
			"the way, or a signature added to the text, altered it. Send it again directly to the judge", name)
	case err != nil && dkim.IsTempFail(err):
		p.why = fmt.Sprintf("the judge could not look up %s's DKIM key (selector %s): %s. Send the message again "+
			"in a while", name, tags["s"], strings.TrimPrefix(err.Error(), "dkim: "))
	case err != nil:
		p.why = fmt.Sprintf("its DKIM signature by %s does not verify (%s): the message was not signed by that "+
			"domain's key, or was changed on the way", name, strings.TrimPrefix(err.Error(), "dkim: "))
	default:
		var missing []string
		for _, h := range dkimHeaders {
			if !slices.ContainsFunc(v.HeaderKeys, func(k string) bool { return strings.EqualFold(k, h) }) {
				missing = append(missing, h)
			}
		}
		if len(missing) > 0 {
			p.why = fmt.Sprintf("the DKIM signature of %s does not cover its %s header(s), which the judge needs signed "+
				"(From, Subject, Date and Message-ID): anyone could have changed them", name, strings.Join(missing, ", "))
		}
	}
	return p
}

// aligned reports whether a DKIM signature of domain d vouches for a From
// address of domain from: the same domain, or the same organisational
// domain (the public suffix and one label more), as DMARC's relaxed
// alignment has it (RFC 7489, 3.1.1).
func aligned(d, from string) bool {
	if d == "" || from == "" {
		return false
	}
	if d == from {
		return true
	}
	od, err1 := publicsuffix.EffectiveTLDPlusOne(d)
	of, err2 := publicsuffix.EffectiveTLDPlusOne(from)
	return err1 == nil && err2 == nil && od == of
}

// dkimTags reads the tags of a DKIM-Signature header value (RFC 6376,
// 3.2: tag=value, separated by ';'), names and values with white space
// removed. A malformed list gives what it could read.
func dkimTags(v string) map[string]string {
	tags := map[string]string{}
	for _, part := range strings.Split(v, ";") {
		name, value, ok := strings.Cut(part, "=")
		if !ok {
			continue
		}
		tags[strings.TrimSpace(name)] = strings.Join(strings.Fields(value), "")
	}
	return tags
}

// bodyOf returns the body of a raw message: what follows the first empty
// line, which ends the header (nothing when there is none).
func bodyOf(raw []byte) []byte {
	for i := 0; i < len(raw); {
		j := bytes.IndexByte(raw[i:], '\n')
		if j < 0 {
			return nil
		}
		line := raw[i : i+j]
		i += j + 1
		if len(line) == 0 || (len(line) == 1 && line[0] == '\r') {
			return raw[i:]
		}
	}
	return nil
}
