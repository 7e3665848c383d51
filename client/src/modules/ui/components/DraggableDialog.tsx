import { useId, useRef, useState, type ReactNode, type PointerEvent } from 'react';
import { Modal, type ModalProps } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useFocusTrap } from '../hooks/useFocusTrap';

interface Props {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  actions?: ReactNode;
  size?: ModalProps['size'];
  /** Distance from the top, e.g. '15vh' for the alarm dialog, '5vh' for the owner dialog (SPEC §2). */
  top?: string;
  /** Selector of the element to focus on opening; the first form field (else the dialog) otherwise. */
  initialFocus?: string;
  'data-testid'?: string;
}

/**
 * The console's dialog: movable by its title bar (SPEC §2 "Draggable dialog behaviour"), a
 * labelled `role=dialog` that takes focus when it opens, keeps Tab inside, closes on Escape
 * and gives focus back to where it was.
 */
export function DraggableDialog({
  open,
  title,
  onClose,
  children,
  actions,
  size = 'small',
  top,
  initialFocus,
  ...rest
}: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const header = useRef<HTMLDivElement>(null);
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const drag = useRef<{ x: number; y: number; from: { x: number; y: number } } | null>(null);
  useFocusTrap(header, open, { container: (h) => h.closest<HTMLElement>('.ui.modal'), initialFocus });

  const down = (e: PointerEvent<HTMLDivElement>) => {
    if ((e.target as HTMLElement).closest('button')) return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, from: offset };
  };
  const move = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (d) setOffset({ x: d.from.x + e.clientX - d.x, y: d.from.y + e.clientY - d.y });
  };
  const up = () => {
    drag.current = null;
  };

  return (
    <Modal
      open={open}
      onClose={onClose}
      size={size}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      data-testid={rest['data-testid']}
      style={{
        transform: `translate(${offset.x}px, ${offset.y}px)`,
        // The dimmer centres its (absolutely placed) dialog; one with a distance is placed at it.
        ...(top ? { top } : {}),
      }}
      onUnmount={() => setOffset({ x: 0, y: 0 })}
    >
      <div ref={header} className="header draggable-header" onPointerDown={down} onPointerMove={move} onPointerUp={up}>
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        <button type="button" className="dialog-close" aria-label={t('common.close')} onClick={onClose}>
          <i className="close icon" aria-hidden="true" />
        </button>
      </div>
      <Modal.Content>{children}</Modal.Content>
      {actions && <Modal.Actions>{actions}</Modal.Actions>}
    </Modal>
  );
}
