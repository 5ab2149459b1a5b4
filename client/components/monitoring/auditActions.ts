import { AUDIT_ACTIONS } from '../../../shared/schemas/audit';
import { auditActionLabel, auditFamilyOf, auditSubjectLabel } from '../../lib/format';

/** The audit log's action filter: per family, the whole family (`user.`, as the server takes it) then each action. */
export const AUDIT_ACTION_OPTIONS = (() => {
  const families = [...new Set(AUDIT_ACTIONS.map(auditFamilyOf))];
  return families.map((family) => {
    const subject = auditSubjectLabel(family);
    return {
      group: subject,
      items: [
        { value: `${family}.`, label: `Every ${subject.toLowerCase()} change` },
        ...AUDIT_ACTIONS.filter((action) => auditFamilyOf(action) === family).map((action) => ({ value: action, label: auditActionLabel(action) })),
      ],
    };
  });
})();
