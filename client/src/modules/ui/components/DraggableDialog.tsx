import { useRef, useState, type ReactNode, type PointerEvent } from 'react';
import { Modal, type ModalProps } from 'semantic-ui-react';

interface Props {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  actions?: ReactNode;
  size?: ModalProps['size'];
  /** Distance from the top, e.g. '15vh' for the alarm dialog, '5vh' for the owner dialog (SPEC §2). */
  top?: string;
  'data-testid'?: string;
}

/** A dialog the person can move by its title bar (SPEC §2 "Draggable dialog behaviour"). */
export function DraggableDialog({ open, title, onClose, children, actions, size = 'small', top, ...rest }: Props) {
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const drag = useRef<{ x: number; y: number; from: { x: number; y: number } } | null>(null);

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
      closeIcon
      data-testid={rest['data-testid']}
      style={{ transform: `translate(${offset.x}px, ${offset.y}px)`, ...(top ? { marginTop: top } : {}) }}
      onUnmount={() => setOffset({ x: 0, y: 0 })}
    >
      <div className="header draggable-header" onPointerDown={down} onPointerMove={move} onPointerUp={up}>
        {title}
      </div>
      <Modal.Content>{children}</Modal.Content>
      {actions && <Modal.Actions>{actions}</Modal.Actions>}
    </Modal>
  );
}
