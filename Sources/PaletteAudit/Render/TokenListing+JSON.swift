public import TokenSources

extension TokenListing {
    /// The listing as `POST /v1/tokens` answers it: compact, keys sorted, byte for byte what
    /// `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes` writes of it
    /// (`TokenListingJSONTests`), but written through ``JSONWriter`` into one buffer. The
    /// encoder held a tree of every value before writing a byte: the listing of a 848 KB token
    /// file of 24,000 tokens took the server past the Kubernetes pod's 384 MiB while it was
    /// encoded; the writer holds the answer alone, and stops at the request's
    /// ``OutputCeiling`` as the audit does.
    public func compactJSON() -> [UInt8] {
        var w = JSONWriter()
        w.object { w in
            if let checkColors {
                w.key("checkColors")
                w.array(checkColors) { w, place in
                    w.object { w in
                        w.string("owner", place.owner)
                        w.key("pointer"); w.pointer(place.pointer)
                        w.key("span"); place.span.write(&w)
                    }
                }
            }
            if let ledger { w.key("ledger"); ledger.write(&w) }
            if let overrideParents {
                w.key("overrideParents")
                w.array(overrideParents) { w, parent in
                    w.object { w in
                        w.key("membersEnd"); w.int(parent.membersEnd)
                        w.key("pointer"); w.pointer(parent.pointer)
                        w.key("span"); parent.span.write(&w)
                    }
                }
            }
            w.string("palette", palette)
            w.key("problems"); w.array(problems) { w, p in p.write(&w) }
            w.key("themes"); w.array(themes) { w, theme in theme.write(&w) }
            w.key("warnings"); w.array(warnings) { w, p in p.write(&w) }
        }
        return w.bytes
    }
}

extension TokenListing.ThemeTokens {
    func write(_ w: inout JSONWriter) {
        w.object { w in
            w.string("extends", extends)
            w.key("inherited")
            w.array(inherited) { w, token in
                w.object { w in
                    w.key("from"); w.string(token.from)
                    w.string("hex", token.hex)
                    w.key("name"); w.string(token.name)
                }
            }
            w.key("name"); w.string(name)
            w.key("tokens"); w.array(tokens) { w, entry in entry.write(&w) }
        }
    }
}

extension TokenListing.Entry {
    func write(_ w: inout JSONWriter) {
        w.object { w in
            w.string("assumed", assumed)
            w.string("colorFrom", colorFrom)
            w.string("description", description)
            w.string("hex", hex)
            if let members { w.key("members"); members.write(&w) }
            w.key("name"); w.string(name)
            if let outOfGamut { w.key("outOfGamut"); w.bool(outOfGamut) }
            w.key("pointer"); w.pointer(pointer)
            w.string("problem", problem)
            if let span { w.key("span"); span.write(&w) }
            w.key("value"); w.string(value)
        }
    }
}

extension TokenListing.Span {
    func write(_ w: inout JSONWriter) {
        w.object { w in
            w.key("column"); w.int(column)
            w.key("end"); w.int(end)
            w.key("line"); w.int(line)
            w.key("start"); w.int(start)
        }
    }
}

extension TokenListing.ColorMembers {
    func write(_ w: inout JSONWriter) {
        w.object { w in
            if let alpha { w.key("alpha"); alpha.write(&w) }
            if let colorSpace { w.key("colorSpace"); colorSpace.write(&w) }
            if let components { w.key("components"); w.array(components) { w, span in span.write(&w) } }
            if let hex { w.key("hex"); hex.write(&w) }
        }
    }
}
