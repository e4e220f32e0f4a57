package message

import "strings"

// Client is the mail program a message was most likely written with, as
// an answer names it, and the settings that fix what it does to order
// files. It is a guess from the User-Agent and X-Mailer headers, the
// Message-ID and headers only one program writes; a message that shows
// none of them gets the generic Client.
type Client struct {
	// Name is the program as an answer names it: "Gmail's web client",
	// "Thunderbird"; "your mail program" when unknown.
	Name string
	// PlainText is the one setting that makes it send plain text instead
	// of HTML only.
	PlainText string
	// KeepText is how to send a signed order file from it so that the
	// signed text arrives unchanged.
	KeepText string
}

// knownClient is a mail program and the test that recognises its mail.
type knownClient struct {
	is func(ua, msgID string, h map[string][]string) bool
	c  Client
}

// knownClients are the programs GuessClient knows, most specific first.
func knownClients() []knownClient {
	return []knownClient{
		{func(ua, _ string, _ map[string][]string) bool { return strings.Contains(ua, "thunderbird") }, Client{
			Name:      "Thunderbird",
			PlainText: "in Thunderbird, Account Settings → Composition & Addressing → clear \"Compose messages in HTML format\" (or, for one message, Options → Send Format → Only Plain Text)",
			KeepText:  "sign with Thunderbird's own OpenPGP (Security → Digitally Sign This Message, which sends PGP/MIME), or attach orders.txt with its signature orders.txt.asc",
		}},
		{func(ua, _ string, _ map[string][]string) bool { return strings.Contains(ua, "apple mail") }, Client{
			Name:      "Apple Mail",
			PlainText: "in Apple Mail, Format → Make Plain Text (Settings → Composing → Message format: Plain Text for every message)",
			KeepText:  "sign with GPG Suite's sign button in the compose window (PGP/MIME), or attach orders.txt with its signature orders.txt.asc",
		}},
		{func(ua, _ string, h map[string][]string) bool {
			return strings.Contains(ua, "outlook") || len(h["X-Ms-Has-Attach"]) > 0 || len(h["Thread-Index"]) > 0
		}, Client{
			Name:      "Outlook",
			PlainText: "in Outlook, Format Text → Plain Text (File → Options → Mail → Compose messages in this format: Plain Text for every message)",
			KeepText:  "sign with GpgOL's Sign button (Gpg4win), which sends PGP/MIME, or attach orders.txt with its signature orders.txt.asc",
		}},
		{func(ua, msgID string, _ map[string][]string) bool {
			return strings.HasSuffix(msgID, "@mail.gmail.com") && !strings.Contains(ua, "android")
		}, Client{
			Name:      "Gmail's web client",
			PlainText: "send as plain text: in Gmail, ⋮ (More options) → Plain text mode",
			KeepText:  "Gmail's plain text mode breaks lines longer than 78 characters: keep every line of the signed text shorter, or attach orders.txt with its signature orders.txt.asc",
		}},
		{func(ua, msgID string, h map[string][]string) bool {
			return strings.HasSuffix(msgID, "@proton.me") || strings.HasSuffix(msgID, "@protonmail.com") || len(h["X-Pm-Origin"]) > 0
		}, Client{
			Name:      "Proton Mail",
			PlainText: "in Proton Mail, Settings → Messages and composing → Composer mode: Plain text",
			KeepText:  "turn on Sign external messages (Settings → Encryption and keys), which sends PGP/MIME, or attach orders.txt with its signature",
		}},
		{func(ua, _ string, _ map[string][]string) bool {
			return strings.Contains(ua, "k-9") || strings.Contains(ua, "k9mail") || strings.Contains(ua, "fairemail")
		}, Client{
			Name:      "your phone's mail app (K-9 Mail or FairEmail)",
			PlainText: "in FairEmail, the compose screen's ⋮ → Plain text only; K-9 Mail sends plain text when the message has no formatting",
			KeepText:  "sign with OpenKeychain from the compose screen (PGP/MIME), or attach orders.txt with its signature",
		}},
		{func(ua, _ string, _ map[string][]string) bool {
			return strings.Contains(ua, "mutt") || strings.Contains(ua, "neomutt")
		}, Client{
			Name:      "mutt",
			PlainText: "mutt sends plain text unless told otherwise: check send_multipart_alternative",
			KeepText:  "sign with mutt's p menu (PGP/MIME), or set pgp_autoinline off",
		}},
	}
}

// genericClient is the Client of a message no known program marks.
func genericClient() Client {
	return Client{
		Name:      "your mail program",
		PlainText: "set your mail program to send plain text (often under Format, or in the account's composition settings), or attach the order file as a .txt file with its signature",
		KeepText:  "attach orders.txt with its signature orders.txt.asc (gpg --detach-sign -a orders.txt), which no mail program changes, or use your mail program's PGP/MIME signing",
	}
}

// GuessClient names the mail program m most likely came from.
func GuessClient(m *Message) Client {
	var ua string
	for _, k := range []string{"User-Agent", "X-Mailer"} {
		for _, v := range m.Header[k] {
			ua += strings.ToLower(v) + " "
		}
	}
	msgID := strings.ToLower(m.MessageID)
	for _, c := range knownClients() {
		if c.is(ua, msgID, m.Header) {
			return c.c
		}
	}
	return genericClient()
}
