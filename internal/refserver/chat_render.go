package refserver

import (
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// This file holds the chat area's small Markdown renderer: enough of Zulip's
// Markdown for channel descriptions and message contents to come back as the
// kind of HTML Zulip produces (paragraphs, bold, italics, code, links, user
// mentions, channel links, fenced quote/spoiler/code blocks). It is not a full
// implementation; everything it does not know is shown as escaped text.

var (
	reChatBold        = regexp.MustCompile(`\*\*([^*\n]+?)\*\*`)
	reChatItalic      = regexp.MustCompile(`(^|[^*\w])\*([^*\s][^*\n]*?)\*`)
	reChatURL         = regexp.MustCompile(`https?://[^\s<>"]+[^\s<>".,;:!?)]`)
	reChatMention     = regexp.MustCompile(`@(_?)\*\*([^*|\n]+?)(?:\|(\d+))?\*\*`)
	reChatChannelLink = regexp.MustCompile(`#\*\*([^*>\n]+?)(?:&gt;([^*@\n]+?))?(?:@(\d+))?\*\*`)
)

// renderChatMarkdown renders Markdown source to HTML ("" for blank source).
func renderChatMarkdown(r *Realm, src string) string {
	src = strings.ReplaceAll(src, "\r\n", "\n")
	if strings.TrimSpace(src) == "" {
		return ""
	}
	var out []string
	var para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, "<p>"+renderChatInline(r, strings.Join(para, "\n"))+"</p>")
			para = nil
		}
	}
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		if fence, kind, ok := chatFenceOpen(trimmed); ok {
			flush()
			var body []string
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != fence; i++ {
				body = append(body, lines[i])
			}
			out = append(out, renderChatFence(r, kind, strings.Join(body, "\n")))
			continue
		}
		if trimmed == "" {
			flush()
			continue
		}
		if strings.HasPrefix(trimmed, "- ") || strings.HasPrefix(trimmed, "* ") {
			flush()
			var items []string
			for ; i < len(lines); i++ {
				t := strings.TrimSpace(lines[i])
				if !strings.HasPrefix(t, "- ") && !strings.HasPrefix(t, "* ") {
					i--
					break
				}
				items = append(items, "<li>"+renderChatInline(r, t[2:])+"</li>")
			}
			out = append(out, "<ul>\n"+strings.Join(items, "\n")+"\n</ul>")
			continue
		}
		para = append(para, line)
	}
	flush()
	return strings.Join(out, "\n")
}

// chatFenceOpen recognizes an opening code fence (``` or ~~~, optionally with a
// language or "quote"/"spoiler header"); it returns the closing fence.
func chatFenceOpen(line string) (fence, kind string, ok bool) {
	for _, f := range []string{"````", "```", "~~~"} {
		if strings.HasPrefix(line, f) {
			return f, strings.TrimSpace(strings.TrimLeft(line, f[:1])), true
		}
	}
	return "", "", false
}

// renderChatFence renders a fenced block as Zulip does for quote, spoiler and code.
func renderChatFence(r *Realm, kind, body string) string {
	word, rest, _ := strings.Cut(kind, " ")
	switch word {
	case "quote":
		return "<blockquote>\n" + renderChatMarkdown(r, body) + "\n</blockquote>"
	case "spoiler":
		return `<div class="spoiler-block"><div class="spoiler-header">` + "\n" + renderChatMarkdown(r, rest) +
			"\n" + `</div><div class="spoiler-content" aria-hidden="true">` + "\n" + renderChatMarkdown(r, body) + "\n</div></div>"
	default:
		return `<div class="codehilite"><pre><span></span><code>` + html.EscapeString(body) + "\n</code></pre></div>"
	}
}

// renderChatInline renders one paragraph's inline Markdown; code spans are kept verbatim.
func renderChatInline(r *Realm, text string) string {
	parts := strings.Split(text, "`")
	var b strings.Builder
	for i, part := range parts {
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString("<code>" + html.EscapeString(part) + "</code>")
			continue
		}
		if i%2 == 1 { // an unmatched backtick
			b.WriteString("`")
		}
		b.WriteString(renderChatSpan(r, part))
	}
	return strings.ReplaceAll(b.String(), "\n", "<br>\n")
}

// renderChatSpan renders inline Markdown outside code spans.
func renderChatSpan(r *Realm, text string) string {
	s := html.EscapeString(text)
	// Links first, and protected, so that later rules do not touch URLs.
	var links []string
	s = reChatURL.ReplaceAllStringFunc(s, func(u string) string {
		links = append(links, fmt.Sprintf(`<a href="%s">%s</a>`, u, u))
		return fmt.Sprintf("\x00%d\x00", len(links)-1)
	})
	s = reChatMention.ReplaceAllStringFunc(s, func(m string) string {
		g := reChatMention.FindStringSubmatch(m)
		silent, name, id := g[1] == "_", html.UnescapeString(g[2]), g[3]
		var u *User
		if id != "" {
			n, _ := strconv.Atoi(id)
			u = r.user(n)
		} else if r != nil {
			for _, uid := range r.userIDs() {
				if r.Users[uid].FullName == name {
					u = r.Users[uid]
					break
				}
			}
		}
		if u == nil {
			return m
		}
		if silent {
			return fmt.Sprintf(`<span class="user-mention silent" data-user-id="%d">%s</span>`, u.ID, html.EscapeString(u.FullName))
		}
		return fmt.Sprintf(`<span class="user-mention" data-user-id="%d">@%s</span>`, u.ID, html.EscapeString(u.FullName))
	})
	s = reChatChannelLink.ReplaceAllStringFunc(s, func(m string) string {
		g := reChatChannelLink.FindStringSubmatch(m)
		var ch *Channel
		if r != nil {
			ch = r.channelByName(html.UnescapeString(g[1]))
		}
		if ch == nil {
			return m
		}
		href := fmt.Sprintf("/#narrow/channel/%d-%s", ch.ID, chatURLSlug(ch.Name))
		if g[2] == "" {
			return fmt.Sprintf(`<a class="stream" data-stream-id="%d" href="%s">#%s</a>`, ch.ID, href, html.EscapeString(ch.Name))
		}
		href += "/topic/" + chatURLSlug(html.UnescapeString(g[2]))
		label := html.EscapeString(ch.Name) + " &gt; " + g[2]
		if g[3] != "" {
			href += "/near/" + g[3]
			label += " @ 💬"
		}
		return fmt.Sprintf(`<a class="stream-topic" data-stream-id="%d" href="%s">#%s</a>`, ch.ID, href, label)
	})
	s = reChatBold.ReplaceAllString(s, "<strong>$1</strong>")
	s = reChatItalic.ReplaceAllString(s, "$1<em>$2</em>")
	for i, l := range links {
		s = strings.Replace(s, fmt.Sprintf("\x00%d\x00", i), l, 1)
	}
	return s
}

// chatURLSlug encodes a name for a narrow URL the way Zulip's hash encoding does
// for the common cases (spaces and unsafe characters).
func chatURLSlug(name string) string {
	var b strings.Builder
	for _, c := range []byte(name) {
		switch {
		case c == ' ':
			b.WriteString(".20")
		case c < 0x80 && (unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c)) || c == '-' || c == '_'):
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, ".%02X", c)
		}
	}
	return b.String()
}

// highlightHTML wraps case-insensitive matches of the search keywords (whole
// words, compared through chatStem) and quoted phrases (substrings) in the text
// of an HTML fragment — never inside tags — with <span class="highlight">.
func highlightHTML(fragment string, words, phrases []string) string {
	if len(words) == 0 && len(phrases) == 0 {
		return fragment
	}
	var b strings.Builder
	for len(fragment) > 0 {
		lt := strings.IndexByte(fragment, '<')
		if lt == 0 {
			gt := strings.IndexByte(fragment, '>')
			if gt < 0 {
				b.WriteString(fragment)
				break
			}
			b.WriteString(fragment[:gt+1])
			fragment = fragment[gt+1:]
			continue
		}
		text := fragment
		if lt > 0 {
			text = fragment[:lt]
		}
		b.WriteString(highlightText(text, words, phrases))
		fragment = fragment[len(text):]
	}
	return b.String()
}

// highlightText highlights matches in HTML-escaped text without markup.
func highlightText(text string, words, phrases []string) string {
	mark := make([]bool, len(text))
	lower := strings.ToLower(text)
	for _, p := range phrases {
		ep := strings.ToLower(html.EscapeString(p))
		if ep == "" {
			continue
		}
		for i := 0; ; {
			j := strings.Index(lower[i:], ep)
			if j < 0 {
				break
			}
			for k := i + j; k < i+j+len(ep); k++ {
				mark[k] = true
			}
			i += j + len(ep)
		}
	}
	if len(words) > 0 {
		stems := map[string]bool{}
		for _, w := range words {
			stems[chatStem(w)] = true
		}
		for _, span := range chatWordSpans(text) {
			if stems[chatStem(text[span[0]:span[1]])] {
				for k := span[0]; k < span[1]; k++ {
					mark[k] = true
				}
			}
		}
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		if !mark[i] {
			b.WriteByte(text[i])
			i++
			continue
		}
		j := i
		for j < len(text) && mark[j] {
			j++
		}
		b.WriteString(`<span class="highlight">` + text[i:j] + `</span>`)
		i = j
	}
	return b.String()
}

// chatWordSpans returns the byte spans of the words (letters and digits) in s.
func chatWordSpans(s string) [][2]int {
	var spans [][2]int
	start := -1
	for i, r := range s {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		if word && start < 0 {
			start = i
		}
		if !word && start >= 0 {
			spans = append(spans, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		spans = append(spans, [2]int{start, len(s)})
	}
	return spans
}

// chatWords returns the lower-cased words of s.
func chatWords(s string) []string {
	var out []string
	for _, sp := range chatWordSpans(s) {
		out = append(out, strings.ToLower(s[sp[0]:sp[1]]))
	}
	return out
}

// chatStem is a crude English stemmer standing in for PostgreSQL's: it folds
// case and the common plural and verb endings, so "Releases" matches "release".
func chatStem(w string) string {
	w = strings.ToLower(w)
	for _, suf := range []string{"ing", "ed", "es", "s", "e"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}

// chatStopWords are ignored by full-text search, as PostgreSQL's English
// configuration ignores them.
var chatStopWords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true,
	"for": true, "from": true, "in": true, "is": true, "it": true, "of": true, "on": true, "or": true,
	"that": true, "the": true, "this": true, "to": true, "was": true, "with": true,
}
