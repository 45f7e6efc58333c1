/* XML and HTML escaping, one table for the SVG writer and the HTTP pages:
 * the five characters markup gives meaning to, as entities valid in text
 * and in single- or double-quoted attributes. */
#ifndef IOR_TEXT_XML_H
#define IOR_TEXT_XML_H

/* "&amp;" for '&', "&lt;", "&gt;", "&quot;", "&#39;"; NULL for any other
 * character. */
const char *ior_xml_entity(char c);

#endif
