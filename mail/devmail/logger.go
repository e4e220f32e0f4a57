package devmail

import (
	"fmt"
	"log/slog"
	"strings"
)

// libLogger adapts a *slog.Logger to the Printf-style loggers of go-imap and
// go-smtp. Their messages are unexpected conditions (a failed write, a
// panic), so they are logged as warnings.
type libLogger struct {
	log *slog.Logger
}

// Printf implements imapserver.Logger and smtp.Logger.
func (l libLogger) Printf(format string, args ...any) {
	l.log.Warn(strings.TrimSuffix(fmt.Sprintf(format, args...), "\n"))
}

// Println implements smtp.Logger.
func (l libLogger) Println(args ...any) {
	l.log.Warn(strings.TrimSuffix(fmt.Sprintln(args...), "\n"))
}
