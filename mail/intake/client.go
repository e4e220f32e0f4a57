package intake

import (
	"mime"
	"strings"

	"github.com/umpire-pbem/umpire/mail/message"
)

// mailClient guesses the mail program that wrote msg, as the section of
// adjudicator.SigningPage that says how to sign from it ("thunderbird"),
// or "" when it cannot tell. It reads the User-Agent or X-Mailer first,
// then what some programs leave in every message they write: Gmail's
// Message-IDs and MIME boundaries, Outlook's Thread-Index, Apple Mail's
// boundaries, Proton's headers. A program that names nothing and leaves
// no mark (FairEmail, a script) is not guessed.
func mailClient(msg *message.Message) string {
	ua := strings.ToLower(msg.UserAgent)
	switch {
	// Thunderbird for Android is K-9 Mail renamed; both before Thunderbird.
	case strings.Contains(ua, "thunderbird for android"), strings.Contains(ua, "k-9 mail"),
		strings.Contains(ua, "k9mail"), strings.Contains(ua, "fairemail"):
		return "android"
	case strings.Contains(ua, "thunderbird"), strings.Contains(ua, "icedove"), strings.Contains(ua, "betterbird"):
		return "thunderbird"
	case strings.Contains(ua, "apple mail"), strings.Contains(ua, "iphone mail"), strings.Contains(ua, "ipad mail"):
		return "apple-mail"
	case strings.Contains(ua, "outlook"): // "Microsoft Outlook 16.0", "Microsoft-MacOutlook/16.89"
		return "outlook"
	case strings.Contains(ua, "mutt"): // Mutt and NeoMutt
		return "mutt"
	case ua != "":
		return ""
	}
	id := strings.ToLower(msg.MessageID)
	boundary := topBoundary(msg)
	switch {
	case strings.HasSuffix(id, "@mail.gmail.com"), strings.HasPrefix(boundary, "000000000000"):
		return "gmail"
	case hasHeader(msg, "X-Pm-Origin"), hasHeader(msg, "X-Pm-Content-Encryption"),
		strings.HasSuffix(id, "@protonmail.com"), strings.HasSuffix(id, "@proton.me"), strings.HasSuffix(id, "@pm.me"):
		return "proton-mail"
	case hasHeader(msg, "Thread-Index"), strings.HasSuffix(id, ".outlook.com"):
		return "outlook"
	case strings.HasPrefix(boundary, "Apple-Mail="):
		return "apple-mail"
	}
	return ""
}

// hasHeader reports whether msg has a header field named key (canonical
// form, "Thread-Index").
func hasHeader(msg *message.Message, key string) bool {
	return len(msg.Header[key]) > 0
}

// topBoundary is the boundary of msg's top-level multipart, or "".
func topBoundary(msg *message.Message) string {
	ct := msg.Header["Content-Type"]
	if len(ct) == 0 {
		return ""
	}
	_, params, err := mime.ParseMediaType(ct[0])
	if err != nil {
		return ""
	}
	return params["boundary"]
}
