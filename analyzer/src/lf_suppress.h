/* lf_suppress: `# lockfix: ignore[LF101]` / `// lockfix: ignore[LF301]` comments,
 * on the flagged line or the line above. `ignore[LF101,LF201]` lists several;
 * bare `lockfix: ignore` suppresses every rule on that line. */
#ifndef LF_SUPPRESS_H
#define LF_SUPPRESS_H

#include <stdint.h>

#include "lf_source.h"

int lf_suppressed(const lf_source *src, uint32_t line, const char *rule_id);

#endif
